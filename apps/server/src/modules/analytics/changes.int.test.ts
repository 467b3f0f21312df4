import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { createRollups } from './rollups.ts';

/**
 * Every change of a job between two refreshes reaches the rollups at the next one, whichever way
 * the change is told (rollups.ts): by a change of the job row alone (updated_at, no event), by an
 * outbox event alone; and a refresh that finds nothing changed writes no row again.
 */
describe('the analytics refresh and the changes between two runs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { ANALYTICS_REFRESH_SECONDS: '3600' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const refresh = () => createRollups(t.database.db).refresh();
  const row = async (id: string) =>
    (
      await sql<{ outcome: string | null; requeues: number; version: string }>`
        select outcome, requeues, xmin::text as version from analytics_jobs where job_id = ${id}`.execute(
        t.database.db,
      )
    ).rows[0];
  const outcomes = async () =>
    (
      await sql<{ jobs: number; cancelled: number; requeues: number }>`
        select jobs, cancelled, requeues from analytics_outcomes where tenant = 'changes'`.execute(
        t.database.db,
      )
    ).rows;

  const ended = async () =>
    (
      await sql<{ ended: number }>`
        select coalesce(sum(ended), 0)::int as ended from analytics_hourly
        where tenant = 'changes'`.execute(t.database.db)
    ).rows[0]?.ended;

  it('counts a change made between two refreshes, by the job row or by an event alone', async () => {
    const { rows } = await sql<{ id: string }>`
      insert into jobs (queue, type, tenant, payload)
      values ('federated', 'message.annotation.job', 'changes', '{}') returning id`.execute(
      t.database.db,
    );
    const id = rows[0]?.id ?? '';
    await refresh();
    expect(await row(id)).toMatchObject({ outcome: null, requeues: 0 });
    expect(await outcomes()).toEqual([{ jobs: 1, cancelled: 0, requeues: 0 }]);
    expect(await ended()).toBe(0);

    // Returned by the server: an outbox event, the job row as it was.
    await sql`insert into outbox_events (type, job_id, data)
      values ('job.requeued', ${id}, '{}'::jsonb)`.execute(t.database.db);
    await refresh();
    expect(await row(id)).toMatchObject({ outcome: null, requeues: 1 });
    expect(await outcomes()).toEqual([{ jobs: 1, cancelled: 0, requeues: 1 }]);

    // Cancelled with no event: the job row's change alone.
    await sql`update jobs set state = 'cancelled', updated_at = now() where id = ${id}`.execute(
      t.database.db,
    );
    await refresh();
    expect(await row(id)).toMatchObject({ outcome: 'cancelled', requeues: 1 });
    expect(await outcomes()).toEqual([{ jobs: 1, cancelled: 1, requeues: 1 }]);
    expect(await ended()).toBe(1);

    // Nothing changed since: the job is looked at again (the margin) but its row is not written.
    const before = await row(id);
    expect((await refresh()).jobs).toBe(0);
    expect((await row(id))?.version).toBe(before?.version);
  });
});
