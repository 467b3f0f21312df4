import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { createJobsRepository, type JobsRepository } from './repository.ts';

describe('job queues', () => {
  let t: TestApp;
  let jobs: JobsRepository;
  let ann: string;
  let bob: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    jobs = createJobsRepository(t.database.db);
    const annSession = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    ann = annSession.userId;
    token = annSession.token;
    bob = (await tokenForRoles(t, 'bob@example.test', ['annotator'])).userId;
  });
  beforeEach(async () => {
    await sql`delete from jobs`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const enqueue = (priority = 0, queue: 'federated' | 'exceptions' = 'federated') =>
    jobs.enqueue({
      queue,
      type: 'message.annotation.job',
      tenant: 'acme',
      payload: { n: priority },
      priority,
    });

  it('a technician receives jobs by priority, then oldest first', async () => {
    const old = await enqueue(0);
    const urgent = await enqueue(5);
    const young = await enqueue(0);
    const order = [];
    for (let i = 0; i < 3; i++) {
      order.push((await jobs.claim('federated', ann, 60_000))?.id);
    }
    expect(order).toEqual([urgent.id, old.id, young.id]);
    expect(await jobs.claim('federated', ann, 60_000)).toBeUndefined();
  });

  it('twenty concurrent claimers never get the same job', async () => {
    for (let i = 0; i < 30; i++) {
      await enqueue();
    }
    const claimed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => jobs.claim('federated', i % 2 ? ann : bob, 60_000)),
    );
    const ids = claimed.map((job) => job?.id).filter(Boolean);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(await jobs.size('federated')).toBe(10);
  });

  it('a job completes exactly once, and only by its assignee', async () => {
    const job = await enqueue();
    await jobs.claim('federated', ann, 60_000);
    expect(await jobs.complete(job.id, bob, { entities: [] })).toBeUndefined();
    const done = await jobs.complete(job.id, ann, { entities: [] });
    expect(done?.state).toBe('completed');
    expect(await jobs.complete(job.id, ann, { entities: ['again'] })).toBeUndefined();
    expect((await jobs.findById(job.id))?.result).toEqual({ entities: [] });
  });

  it('a released or expired job goes back to the head of its queue, and is dead-lettered after its attempts', async () => {
    const first = await jobs.enqueue({
      queue: 'federated',
      type: 't',
      tenant: 'acme',
      payload: {},
      maxAttempts: 2,
    });
    await enqueue();
    await jobs.claim('federated', ann, 60_000);
    await jobs.release({ jobId: first.id });
    // It keeps its age: the next claim gets it again, ahead of the younger job.
    expect((await jobs.claim('federated', bob, 1))?.id).toBe(first.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const expired = await jobs.release({ expiredBefore: new Date() });
    expect(expired.map((j) => [j.id, j.state])).toEqual([[first.id, 'dead']]);
    expect((await jobs.claim('federated', ann, 60_000))?.id).not.toBe(first.id);

    // Admins see it in the dead-letter list; others may not.
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const list = await t.app.inject({
      method: 'GET',
      url: '/internal/jobs/_dead',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(list.json<{ items: { id: string; attempts: number }[] }>().items).toEqual([
      expect.objectContaining({ id: first.id, attempts: 2, queue: 'federated' }),
    ]);
    const denied = await t.app.inject({
      method: 'GET',
      url: '/internal/jobs/_dead',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('queue sizes answer { size } to any signed-in user, 401 without a token', async () => {
    await enqueue();
    await enqueue();
    await enqueue(0, 'exceptions');
    const get = (queue: string) =>
      t.app.inject({
        method: 'GET',
        url: `/internal/queues/${queue}/_size`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await get('federated')).json()).toEqual({ size: 2 });
    expect((await get('exceptions')).json()).toEqual({ size: 1 });
    expect((await get('hpi-summarisation')).json()).toEqual({ size: 0 });
    expect(
      (await t.app.inject({ method: 'GET', url: '/internal/queues/federated/_size' })).statusCode,
    ).toBe(401);
    expect((await get('nonsense')).statusCode).toBe(404);
  });
});
