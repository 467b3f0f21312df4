import { sql, type Kysely } from 'kysely';

/**
 * Tasks of the asynchronous pipelines (the pipelines themselves are code). A task waits in a step
 * of its pipeline; `_pop` takes the oldest free one with SKIP LOCKED and leases it to the caller.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table async_tasks (
      id uuid primary key default gen_random_uuid(),
      -- Arrival order, for ties of created_on (clock resolution).
      seq bigint generated always as identity,
      pipeline_id integer not null,
      step text not null,
      job_type text not null,
      job_class text not null,
      state text not null,
      version text not null,
      data jsonb not null default '{}',
      annotations jsonb not null default '{"entities": []}',
      condition jsonb not null default '{}',
      locations jsonb not null default '{}',
      metadata jsonb not null default '{}',
      change_log jsonb not null default '[]',
      lock_holder uuid references users(id),
      lock_expires_at timestamptz,
      created_on timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz,
      discarded_note text
    );
    create index async_tasks_pop_idx on async_tasks (pipeline_id, step, created_on, seq)
      where completed_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table async_tasks`.execute(db);
}
