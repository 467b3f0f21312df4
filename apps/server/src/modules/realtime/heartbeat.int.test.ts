import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { createSessionsRepository } from './sessions-repository.ts';

/**
 * The heartbeat's mark of live sessions (sessions-repository.ts `touch`) never waits on the job
 * path: a session seen a moment ago is left alone, and one a job statement holds locked is passed
 * over until the next heartbeat, yet still answered as held by its socket.
 */
describe('the heartbeat marks sessions seen without waiting on the job path', () => {
  let t: TestApp;
  const sessions = () => createSessionsRepository(t.database.db, 45_000);
  const seenAt = async (connectionId: string) =>
    (
      await sql<{ at: Date }>`
        select last_seen_at as at from technician_sessions where connection_id = ${connectionId}`.execute(
        t.database.db,
      )
    ).rows[0]?.at.getTime();
  /** A session held by a socket, last seen a minute ago. */
  async function attached(email: string, connectionId: string): Promise<void> {
    const { userId } = await tokenForRoles(t, email, ['annotator']);
    await sessions().attach(userId, 'federated', 'node-a', connectionId);
    await sql`
      update technician_sessions set last_seen_at = now() - interval '1 minute'
      where connection_id = ${connectionId}`.execute(t.database.db);
  }

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks the sessions not seen lately, leaves the fresh ones, and answers all that are held', async () => {
    await attached('old@beat.test', 'conn-old');
    await attached('fresh@beat.test', 'conn-fresh');
    await sql`
      update technician_sessions set last_seen_at = now() - interval '1 second'
      where connection_id = 'conn-fresh'`.execute(t.database.db);
    const old = await seenAt('conn-old');
    const fresh = await seenAt('conn-fresh');
    const held = await sessions().touch(['conn-old', 'conn-fresh', 'conn-gone'], 7_500);
    expect([...held].sort()).toEqual(['conn-fresh', 'conn-old']);
    expect(await seenAt('conn-old')).toBeGreaterThan(old ?? Infinity);
    expect(await seenAt('conn-fresh')).toBe(fresh);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'passes over a session a job statement holds locked, and marks it at the next heartbeat',
    async () => {
      await attached('busy@beat.test', 'conn-busy');
      const before = await seenAt('conn-busy');
      const other = new pg.Client({ connectionString: t.databaseUrl });
      await other.connect();
      try {
        await other.query('begin');
        await other.query(
          `select 1 from technician_sessions where connection_id = 'conn-busy' for update`,
        );
        // Answered while the row is locked: a touch that waited for the lock would never return.
        const held = await sessions().touch(['conn-busy'], 7_500);
        expect(held.has('conn-busy')).toBe(true);
        expect(await seenAt('conn-busy')).toBe(before);
        await other.query('commit');
      } finally {
        await other.end();
      }
      await sessions().touch(['conn-busy'], 7_500);
      expect(await seenAt('conn-busy')).toBeGreaterThan(before ?? Infinity);
    },
  );
});
