import { sql, type Kysely } from 'kysely';

/**
 * Direct messaging and push notifications (issue 15 items 5 and 6): threads between staff and a
 * patient (one open thread per patient), their messages both ways, and the push notifications
 * queued for the assistant. Their outbox events (`message.sent`, `thread.archived`,
 * `notification.*`) name neither a job nor a conversation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table messaging_threads (
      id uuid primary key default gen_random_uuid(),
      consumer_id text not null references consumers(id),
      created_by uuid references users(id) on delete set null,
      created_by_email text not null,
      created_on timestamptz not null default now(),
      archived_on timestamptz,
      archived_by uuid references users(id) on delete set null
    );
    -- Only one open thread per customer (spec 3 §4): a second start is a 409.
    create unique index messaging_threads_open_idx on messaging_threads (consumer_id)
      where archived_on is null;

    create table messaging_messages (
      id uuid primary key default gen_random_uuid(),
      thread_id uuid not null references messaging_threads(id),
      -- The assistant's own id of a patient's message: sending it again is a safe retry.
      external_id text,
      direction text not null check (direction in ('IN', 'OUT')),
      content text not null,
      author_id text not null,
      author_name text not null,
      created_on timestamptz not null default clock_timestamp(),
      -- IN: when staff read it; OUT: when the patient read it (the assistant says so).
      read_on timestamptz,
      unique (thread_id, external_id)
    );
    create index messaging_messages_thread_idx on messaging_messages (thread_id, created_on);

    create table push_notifications (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in ('broadcast', 'test')),
      consumer_id text references consumers(id),
      title text not null,
      content text not null,
      data jsonb not null default '{}',
      created_by uuid references users(id) on delete set null,
      created_by_email text not null,
      created_on timestamptz not null default now(),
      -- What the assistant reported back: devices reached, and when.
      delivered_devices integer,
      delivered_on timestamptz,
      check ((kind = 'test') = (consumer_id is not null))
    );
    create index push_notifications_kind_idx on push_notifications (kind, created_on);

    alter table outbox_events drop constraint outbox_events_subject_check;
    alter table outbox_events add constraint outbox_events_subject_check
      check (job_id is not null or conversation_id is not null
        or type ~ '^(message|thread|notification)\\.');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from outbox_events where job_id is null and conversation_id is null;
    alter table outbox_events drop constraint outbox_events_subject_check;
    alter table outbox_events add constraint outbox_events_subject_check
      check (job_id is not null or conversation_id is not null);
    drop table push_notifications;
    drop table messaging_messages;
    drop table messaging_threads;
  `.execute(db);
}
