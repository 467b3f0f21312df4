import { sql, type Kysely } from 'kysely';

/**
 * Technician sessions: one row per (technician, source). A row with a connection id and a
 * recent last_seen_at is a live socket somewhere in the cluster.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table technician_sessions (
      user_id uuid not null references users(id) on delete cascade,
      source text not null check (source in ('federated', 'exceptions', 'priority')),
      state text not null default 'paused' check (state in ('paused', 'waiting', 'activated')),
      node_id text,
      connection_id text,
      last_seen_at timestamptz,
      waiting_since timestamptz,
      current_job_id uuid references jobs(id) on delete set null,
      updated_at timestamptz not null default now(),
      primary key (user_id, source)
    );
    create unique index technician_sessions_connection_idx on technician_sessions (connection_id)
      where connection_id is not null;
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(new Error('004-technician-sessions cannot be rolled back.'));
}
