import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { createJobsRepository, LEASE_RAN_OUT, type JobsRepository } from './repository.ts';

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
    const deadAt = (await jobs.findById(first.id))?.updated_at;
    expect(list.json()).toEqual({
      items: [
        {
          id: first.id,
          queue: 'federated',
          type: 't',
          tenant: 'acme',
          attempts: 2,
          lastError: LEASE_RAN_OUT,
          createdAt: new Date(first.created_at).toISOString(),
          deadAt: new Date(deadAt ?? 0).toISOString(),
        },
      ],
    });
    const denied = await t.app.inject({
      method: 'GET',
      url: '/internal/jobs/_dead',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(denied.statusCode).toBe(403);
  });

  it('an admin requeues a dead job (fresh attempts, ahead of younger jobs) or discards it; each is told to the assistant and audited', async () => {
    const admin = await tokenForRoles(t, 'ada@example.test', ['admin']);
    const post = (url: string, bearer = admin.token) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${bearer}` } });
    const kill = async () => {
      const job = await jobs.enqueue({
        queue: 'federated',
        type: 't',
        tenant: 'acme',
        payload: {},
        maxAttempts: 1,
      });
      expect((await jobs.claim('federated', ann, 60_000))?.id).toBe(job.id);
      expect((await jobs.release({ jobId: job.id })).map((j) => j.state)).toEqual(['dead']);
      return job;
    };
    const eventsOf = (jobId: string) =>
      t.database.db
        .selectFrom('outbox_events')
        .select(['type', 'data'])
        .where('job_id', '=', jobId)
        .orderBy('cursor')
        .execute();
    const audited = (action: string, jobId: string) =>
      t.database.db
        .selectFrom('audit_events')
        .select(['actor_email', 'outcome'])
        .where('action', '=', action)
        .where('resource_id', '=', jobId)
        .execute();

    const dead = await kill();
    const younger = await enqueue();
    const requeued = await post(`/internal/jobs/${dead.id}/_requeue`);
    expect(requeued.statusCode).toBe(200);
    expect(requeued.json()).toMatchObject({
      id: dead.id,
      state: 'queued',
      attempts: 0,
      lastError: expect.stringMatching(/let the job go/),
    });
    expect(await jobs.size('federated')).toBe(2);
    expect((await jobs.claim('federated', bob, 60_000))?.id).toBe(dead.id);
    expect((await jobs.claim('federated', bob, 60_000))?.id).toBe(younger.id);
    expect((await eventsOf(dead.id)).at(-1)).toMatchObject({
      type: 'job.requeued',
      data: {
        previousState: 'dead',
        requeuedBy: { email: 'ada@example.test' },
        job: { id: dead.id, state: 'queued' },
      },
    });
    expect(await audited('job.requeue', dead.id)).toEqual([
      { actor_email: 'ada@example.test', outcome: 'success' },
    ]);
    // It is assigned now, not dead: neither action applies, and nothing changes.
    for (const action of ['_requeue', '_discard']) {
      const refused = await post(`/internal/jobs/${dead.id}/${action}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        error: 'Conflict',
        message: `The job ${dead.id} is assigned, not dead: only a dead job can be ${action === '_requeue' ? 'requeued' : 'discarded'}.`,
      });
    }
    expect((await jobs.findById(dead.id))?.state).toBe('assigned');

    const other = await kill();
    const discarded = await post(`/internal/jobs/${other.id}/_discard`);
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json()).toMatchObject({ id: other.id, state: 'cancelled', attempts: 1 });
    expect((await eventsOf(other.id)).at(-1)).toMatchObject({
      type: 'job.cancelled',
      data: { previousState: 'dead', job: { id: other.id, state: 'cancelled' } },
    });
    expect(await audited('job.discard', other.id)).toHaveLength(1);
    expect((await post(`/internal/jobs/${other.id}/_requeue`)).statusCode).toBe(409);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/internal/jobs/_dead',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(listed.json()).toEqual({ items: [] });

    // Unknown and malformed ids, and callers without the privilege, change nothing.
    const unknown = await post('/internal/jobs/00000000-0000-4000-8000-000000000000/_requeue');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(
      "No job with the id '00000000-0000-4000-8000-000000000000'.",
    );
    const malformed = await post('/internal/jobs/not-a-job/_discard');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details).toEqual([
      { path: 'params.id', message: 'must be a job id (uuid)' },
    ]);
    const third = await kill();
    expect((await post(`/internal/jobs/${third.id}/_requeue`, token)).statusCode).toBe(403);
    expect((await jobs.findById(third.id))?.state).toBe('dead');
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
