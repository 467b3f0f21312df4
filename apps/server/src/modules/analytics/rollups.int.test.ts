import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { createRollups } from './rollups.ts';

/**
 * What a refresh covers (rollups.ts): no further than the start of the oldest transaction still
 * running, so a job whose transaction commits after a refresh is counted by the next one however
 * long it ran; and a background run leaves the work to a run in progress instead of waiting to
 * redo it. Two connections at once: PostgreSQL only (PGlite is one connection).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the analytics refresh under load', () => {
  let t: TestApp;
  let other: pg.Client;

  beforeAll(async () => {
    t = await startTestApp({ env: { ANALYTICS_REFRESH_SECONDS: '3600' } });
    other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  const rollups = () => createRollups(t.database.db);
  const counted = async (id: string) =>
    (await sql`select 1 from analytics_jobs where job_id = ${id}`.execute(t.database.db)).rows
      .length === 1;

  it('a job stored by a transaction running during a refresh is counted by the next refresh', async () => {
    await other.query('begin');
    const started = await other.query<{ at: Date }>('select now() as at');
    const { rows } = await other.query<{ id: string }>(
      `insert into jobs (queue, type, tenant, payload) values ('federated', 'message.annotation.job', 'late', '{}')
       returning id`,
    );
    const id = rows[0]?.id ?? '';
    // A refresh while that transaction runs: it cannot see the job, and covers no further than
    // the transaction's start.
    await rollups().refresh();
    expect(await counted(id)).toBe(false);
    const covered = await sql<{ until: Date }>`
      select covered_until as until from analytics_refresh where id = 1`.execute(t.database.db);
    expect(covered.rows[0]?.until.getTime()).toBeLessThanOrEqual(
      started.rows[0]?.at.getTime() ?? 0,
    );
    await other.query('commit');
    await rollups().refresh();
    expect(await counted(id)).toBe(true);
  });

  it('a background run that finds another running does nothing; an explicit one waits for it', async () => {
    await other.query('begin');
    await other.query(`select pg_advisory_xact_lock(hashtext('loopdesk.analytics.refresh'))`);
    expect(await rollups().refresh({ skipIfRunning: true })).toEqual({ jobs: 0, skipped: true });
    let done = false;
    const waiting = rollups()
      .refresh()
      .then((result) => {
        done = true;
        return result;
      });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(done).toBe(false);
    await other.query('commit');
    expect((await waiting).skipped).toBeUndefined();
  });
});
