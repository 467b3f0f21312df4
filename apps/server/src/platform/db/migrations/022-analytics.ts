import { sql, type Kysely } from 'kysely';

/**
 * Analytics rollups (issue 16): the dashboard's figures summarised from the job events (outbox)
 * and the audit rows the server already writes, refreshed in the background by
 * modules/analytics/rollups.ts. They hold ids, times and counts only: never message text or a
 * note's text. Every table here can be rebuilt from the events (`delete` and refresh).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One row per job: when it arrived, was first and last delivered, was answered, ended.
    create table analytics_jobs (
      job_id uuid primary key,
      queue text not null,
      type text not null,
      tenant text not null,
      created_at timestamptz not null,
      first_delivered_at timestamptz,
      last_delivered_at timestamptz,
      answered_at timestamptz,
      answered_by uuid,
      exception boolean not null default false,
      outcome text check (outcome in ('completed', 'cancelled', 'dead')),
      ended_at timestamptz,
      -- Returned to the queue because the technician's socket closed or the lease ran out.
      requeues integer not null default 0,
      -- Times it was dead-lettered.
      dead integer not null default 0,
      wait_s double precision,
      handle_s double precision,
      total_s double precision
    );
    create index analytics_jobs_created_idx on analytics_jobs (created_at);
    create index analytics_jobs_ended_idx on analytics_jobs (ended_at);
    create index analytics_jobs_answered_idx on analytics_jobs (answered_at, answered_by);

    -- Arrivals and ends per hour, queue, type and tenant: the queue charts read only this.
    create table analytics_hourly (
      hour timestamptz not null,
      queue text not null,
      type text not null,
      tenant text not null,
      arrivals integer not null default 0,
      completions integer not null default 0,
      ended integer not null default 0,
      primary key (hour, queue, type, tenant)
    );

    -- One row per handover of a conversation to the exception desk.
    create table analytics_handovers (
      conversation_id text not null,
      handed_at timestamptz not null,
      tenant text not null,
      queue text,
      allocated_at timestamptz,
      first_reply_at timestamptz,
      closed_at timestamptz,
      closed_how text check (closed_how in ('handback', 'end')),
      primary key (conversation_id, handed_at)
    );
    create index analytics_handovers_handed_idx on analytics_handovers (handed_at);

    -- Async tasks discarded (audit async-jobs.task.discard): whether a note came, never the note.
    create table analytics_discards (
      audit_id bigint primary key,
      occurred_at timestamptz not null,
      type text not null,
      with_note boolean not null
    );
    create index analytics_discards_occurred_idx on analytics_discards (occurred_at);

    -- How far the rollups are brought up to date.
    create table analytics_refresh (
      id integer primary key check (id = 1),
      refreshed_at timestamptz not null,
      covered_until timestamptz not null
    );

    -- The refresh finds what changed since its last run by time.
    create index outbox_events_created_idx on outbox_events (created_at);
    create index audit_events_occurred_idx on audit_events (occurred_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table analytics_jobs, analytics_hourly, analytics_handovers, analytics_discards,
      analytics_refresh;
    drop index outbox_events_created_idx;
    drop index audit_events_occurred_idx;
  `.execute(db);
}
