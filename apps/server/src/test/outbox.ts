import { sql } from 'kysely';
import type { Database } from '../platform/db/database.ts';

/**
 * Waits until the pull feed can show every outbox event committed so far. The feed passes an event
 * only once every transaction older than it has ended, and PostgreSQL's horizon for that is
 * cluster-wide: another test file's open transaction holds it back for a moment. A test that has
 * just written events calls this before it reads the feed. PGlite has one connection: no wait.
 */
export async function feedCaughtUp(db: Database, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ caughtUp: boolean }>`
      select coalesce(max(txid) < pg_snapshot_xmin(pg_current_snapshot()), true) as "caughtUp"
      from outbox_events`.execute(db);
    if (rows[0]?.caughtUp) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`The outbox feed did not catch up within ${timeoutMs} ms.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
