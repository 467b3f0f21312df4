import { sql, type Kysely } from 'kysely';

/**
 * The direct hand-off (issue 3 item 10): a new job goes to the longest-waiting technician of its
 * queue inside the enqueue's own statement. That statement audits the delivery, so the session
 * keeps the address its socket connects from; the partial index finds the waiting sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table technician_sessions add column ip text;
    create index technician_sessions_waiting_idx on technician_sessions (source, waiting_since)
      where state = 'waiting' and connection_id is not null;
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(new Error('012-direct-hand-off cannot be rolled back.'));
}
