import { sql, type Kysely } from 'kysely';

/** The job table of the realtime queues: claims by priority then age with SKIP LOCKED. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table jobs (
      id uuid primary key default gen_random_uuid(),
      -- Arrival order, for ties of queued_at (clock resolution).
      seq bigint generated always as identity,
      queue text not null,
      type text not null,
      tenant text not null,
      payload jsonb not null,
      priority integer not null default 0,
      state text not null default 'queued'
        check (state in ('queued', 'assigned', 'completed', 'cancelled', 'dead')),
      attempts integer not null default 0,
      max_attempts integer not null default 5,
      lease_expires_at timestamptz,
      assignee_id uuid references users(id),
      result jsonb,
      idempotency_key text,
      queued_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    );
    create unique index jobs_idempotency_idx on jobs (idempotency_key) where idempotency_key is not null;
    create index jobs_claim_idx on jobs (queue, priority desc, queued_at, seq) where state = 'queued';
    create index jobs_lease_idx on jobs (lease_expires_at) where state = 'assigned';
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error('002-jobs cannot be rolled back: jobs hold work the assistant sent.'),
  );
}
