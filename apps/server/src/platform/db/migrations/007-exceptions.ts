import { sql, type Kysely } from 'kysely';

/**
 * The exception desk (issue 5): patients, their conversations and messages, which reviewer holds
 * which conversation, the physician directory, tenant configurations and appointments. The
 * outbox also carries conversation events (manual replies, handbacks, ends) to the assistant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table consumers (
      id text primary key,
      tenant text not null,
      given_name text not null,
      family_name text not null default '',
      email text,
      external_references jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create sequence conversations_queue_seq;

    create table conversations (
      id text primary key,
      tenant text not null,
      bot_conversation_id text,
      consumer_id text not null references consumers(id),
      -- Who may write to the patient now, in one column changed only in transactions that lock
      -- the row: 'bot', 'queue' (handed to humans, waiting for a reviewer) or the reviewer's
      -- user id. A reply from anyone else is refused, so bot and human never both answer.
      holder text not null default 'bot'
        check (holder in ('bot', 'queue') or holder ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
      -- The exceptions queue it was handed to, while humans have it.
      queue text check (queue in ('exceptions', 'exceptions-restricted')),
      -- Once restricted, its transcript stays restricted.
      restricted boolean not null default false,
      -- First in, first out: a conversation that goes back to the queue keeps its place.
      queued_at timestamptz,
      queue_seq bigint,
      handover_reason text,
      allocated_at timestamptz,
      read boolean not null default false,
      status text not null default 'open' check (status in ('open', 'ended')),
      end_type text check (end_type in ('END', 'TERMINATE')),
      ended_at timestamptz,
      ended_by uuid references users(id) on delete set null,
      message_count integer not null default 0,
      last_message_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((holder = 'bot') = (queue is null)),
      check (holder = 'bot' or (queued_at is not null and queue_seq is not null)),
      check ((status = 'ended') = (end_type is not null))
    );
    create index conversations_waiting_idx on conversations (queued_at, queue_seq) where holder = 'queue';
    create index conversations_holder_idx on conversations (holder) where holder not in ('bot', 'queue');
    create index conversations_consumer_idx on conversations (consumer_id);

    create table conversation_messages (
      conversation_id text not null references conversations(id) on delete cascade,
      id text not null,
      -- Order of the transcript: given under the conversation's row lock, so it is also the
      -- order in which appends commit, and a tail poll never skips a message.
      position integer not null,
      direction text not null check (direction in ('IN', 'OUT')),
      content text not null,
      author_kind text not null check (author_kind in ('patient', 'assistant', 'reviewer')),
      author_id text not null,
      author_name text not null,
      metadata jsonb not null default '{"entities": []}',
      translation jsonb,
      reply_to text,
      reply_type text,
      created_on timestamptz not null,
      primary key (conversation_id, id),
      unique (conversation_id, position)
    );

    -- A reviewer's place at the desk: the conversation on screen, and since when they have waited
    -- for one (they resumed, or last got one): the longest waiting gets the next one first.
    create table exception_reviewers (
      user_id uuid primary key references users(id) on delete cascade,
      current_conversation_id text references conversations(id) on delete set null,
      idle_since timestamptz,
      updated_at timestamptz not null default now()
    );

    create table physicians (
      id text primary key,
      first_name text not null,
      last_name text not null,
      active boolean not null default true,
      updated_at timestamptz not null default now()
    );

    create table tenant_configurations (
      id text primary key,
      tenant text not null,
      display_name text not null,
      emr jsonb,
      timezone text not null,
      updated_at timestamptz not null default now()
    );

    create table appointments (
      id uuid primary key default gen_random_uuid(),
      type text not null check (type in ('GENERAL', 'HPI', 'ONBOARDING')),
      from_date_time text not null,
      duration integer not null check (duration > 0),
      timezone text not null,
      starts_at timestamptz not null,
      conversation_id text references conversations(id),
      consumer_id text references consumers(id),
      consumer_email text,
      staff_id text not null references physicians(id),
      staff_first_name text not null,
      staff_last_name text not null,
      consumer_note text not null,
      appointment_note text not null,
      status text not null default 'SCHEDULED',
      created_on timestamptz not null default now(),
      created_by uuid references users(id) on delete set null,
      created_by_email text not null,
      check (conversation_id is not null or consumer_email is not null)
    );
    create index appointments_created_idx on appointments (created_on desc);
    create index appointments_conversation_idx on appointments (conversation_id);

    -- Exception tasks (exception.job) belong to a conversation and go to whoever holds it.
    create index jobs_exception_task_idx on jobs ((payload->>'conversationId'), state)
      where queue in ('exceptions', 'exceptions-restricted');

    -- Conversation events for the assistant ride the same outbox as job events.
    alter table outbox_events alter column job_id drop not null;
    alter table outbox_events add column conversation_id text;
    alter table outbox_events drop constraint outbox_events_type_check;
    alter table outbox_events add constraint outbox_events_type_check
      check (type ~ '^[a-z]+(\\.[a-z-]+)+$');
    alter table outbox_events add constraint outbox_events_subject_check
      check (job_id is not null or conversation_id is not null);
    create index outbox_events_conversation_idx on outbox_events (conversation_id)
      where conversation_id is not null;
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error('007-exceptions cannot be rolled back: it holds what patients and reviewers wrote.'),
  );
}
