import { sql, type Kysely } from 'kysely';

/**
 * The assistant's integration API (issue 6): hashed API keys, the transactional outbox of job
 * events (its cursor is the pull feed's position) and the webhook delivery state of each event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      -- The 8 characters after ldk_: shown to admins, and how a presented key is looked up.
      prefix text not null unique,
      -- sha256 (hex) of the secret part; the secret itself is never stored.
      secret_hash text not null,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );

    create table outbox_events (
      -- Position in the pull feed: (txid, cursor). The feed shows only events of transactions
      -- older than every transaction still running, in (txid, cursor) order, so a reader never
      -- skips an event that commits later, and writers never wait for each other.
      cursor bigint generated always as identity primary key,
      txid xid8 not null default pg_current_xact_id(),
      id uuid not null unique default gen_random_uuid(),
      type text not null
        check (type in ('job.created', 'job.completed', 'job.cancelled', 'job.dead', 'job.requeued')),
      job_id uuid not null,
      data jsonb not null,
      created_at timestamptz not null default now()
    );
    create index outbox_events_job_idx on outbox_events (job_id);
    create index outbox_events_feed_idx on outbox_events (txid, cursor);

    create table webhook_deliveries (
      event_id uuid primary key references outbox_events(id) on delete cascade,
      attempts integer not null default 0,
      -- Due when not null and in the past; a claim pushes it forward as a lease.
      next_attempt_at timestamptz,
      delivered_at timestamptz,
      dead_at timestamptz,
      last_error text,
      updated_at timestamptz not null default now()
    );
    create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
      where delivered_at is null and dead_at is null;
    create index webhook_deliveries_dead_idx on webhook_deliveries (dead_at) where dead_at is not null;
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error(
      '005-integration cannot be rolled back: the outbox holds what the assistant is owed.',
    ),
  );
}
