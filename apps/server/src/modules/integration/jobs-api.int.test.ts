import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { feedCaughtUp } from '../../test/outbox.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { createJobsRepository } from '../jobs/repository.ts';
import { recordJobEvent } from '../jobs/events.ts';

const annotationJob = {
  queue: 'federated',
  type: 'message.annotation.job',
  tenant: 'acme-clinic',
  priority: 2,
  data: {
    slotSpecification: { code: 'onset', data_type: 'text', multiplicity: '0..1' },
    slot: { id: 'slot-1', code: 'onset' },
    lastTurn: { content: 'My head hurts since Monday', messageId: 'm-1' },
    job: { purpose: 'full' },
    metadata: { xdhtenantid: 'acme-clinic', xdhconvid: 'c-1', xdhmessageid: 'm-1' },
  },
};

interface Feed {
  events: { cursor: string; id: string; type: string; jobId: string }[];
  nextCursor: string;
}

describe('the integration API: the assistant sends jobs with an API key', () => {
  let t: TestApp;
  let admin: string;
  let annotator: string;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'assistant-test' },
    });
    expect(created.statusCode).toBe(201);
    key = created.json().key;
    keyId = created.json().id;
  });
  beforeEach(async () => {
    await sql`delete from webhook_deliveries`.execute(t.database.db);
    await sql`delete from outbox_events`.execute(t.database.db);
    await sql`delete from jobs`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const withKey = (apiKey = key) => ({ authorization: `Bearer ${apiKey}` });
  const createJob = (idempotencyKey: string, body: unknown = annotationJob, apiKey = key) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { ...withKey(apiKey), 'idempotency-key': idempotencyKey },
      payload: body as Record<string, unknown>,
    });
  const count = async (table: 'jobs' | 'outbox_events' | 'webhook_deliveries') =>
    (
      await t.database.db
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  describe('API keys, managed by admins', () => {
    it('an admin creates a key and sees it once: the list shows only its prefix', async () => {
      expect(key).toMatch(/^ldk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
      const list = await t.app.inject({
        method: 'GET',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(list.statusCode).toBe(200);
      const mine = list.json<{ apiKeys: { id: string }[] }>().apiKeys.find((k) => k.id === keyId);
      expect(mine).toMatchObject({
        name: 'assistant-test',
        prefix: key.slice(4, 12),
        revokedAt: null,
      });
      expect(JSON.stringify(list.json())).not.toContain(key.slice(13));
      const stored = await t.database.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow();
      expect(stored.secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored)).not.toContain(key.slice(13));
      const audit = await t.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'integration.api-key.create')
        .execute();
      expect(audit[0]).toMatchObject({ actor_email: 'ada@example.test', resource_id: keyId });
    });

    it('without the admin privilege the key routes answer 403, without a token 401', async () => {
      const routes = [
        { method: 'GET', url: '/internal/integration/api-keys' },
        { method: 'POST', url: '/internal/integration/api-keys', payload: { name: 'x' } },
        { method: 'DELETE', url: `/internal/integration/api-keys/${keyId}` },
      ] as const;
      for (const route of routes) {
        const refused = await t.app.inject({
          ...route,
          headers: { authorization: `Bearer ${annotator}` },
        });
        expect(refused.statusCode, route.url).toBe(403);
        expect((await t.app.inject(route)).statusCode, route.url).toBe(401);
      }
    });

    it('a key name that fails its schema is a 400 naming the field, and creates nothing', async () => {
      const before = await t.database.db.selectFrom('api_keys').selectAll().execute();
      const response = await t.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: '' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().details[0].path).toBe('body.name');
      expect(await t.database.db.selectFrom('api_keys').selectAll().execute()).toEqual(before);
    });

    it('a revoked key is refused with a 401 that says so, and creates nothing', async () => {
      const extra = await t.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'to-revoke' },
      });
      const { id, key: doomed } = extra.json();
      expect((await createJob('before-revoke', annotationJob, doomed)).statusCode).toBe(201);
      const revoked = await t.app.inject({
        method: 'DELETE',
        url: `/internal/integration/api-keys/${id}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().revokedAt).toEqual(expect.any(String));
      const jobsBefore = await count('jobs');
      const refused = await createJob('after-revoke', annotationJob, doomed);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({
        error: 'Unauthorized',
        message: expect.stringMatching(/was revoked on .*ask an admin for a new one/),
      });
      expect(await count('jobs')).toBe(jobsBefore);
      const unknown = await t.app.inject({
        method: 'DELETE',
        url: '/internal/integration/api-keys/00000000-0000-4000-8000-000000000000',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('a staff access token, a missing key or a made-up key is not an API key: 401', async () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ authorization: `Bearer ${admin}` }, /not an API key.*not a staff access token/],
        [{}, /needs an API key/],
        [{ authorization: 'Basic abc' }, /must be "Bearer ldk_…"/],
        [{ authorization: `Bearer ldk_00000000_${'x'.repeat(43)}` }, /API key is not valid/],
        [{ authorization: `Bearer ${key.slice(0, -1)}Z` }, /API key is not valid/],
      ];
      for (const [headers, message] of cases) {
        for (const route of [
          { method: 'POST', url: '/api/v1/jobs', payload: annotationJob },
          { method: 'GET', url: '/api/v1/jobs/00000000-0000-4000-8000-000000000000' },
          { method: 'POST', url: '/api/v1/jobs/00000000-0000-4000-8000-000000000000/cancel' },
          { method: 'GET', url: '/api/v1/events' },
        ] as const) {
          const response = await t.app.inject({
            ...route,
            headers: { ...headers, 'idempotency-key': 'k' },
          });
          expect(response.statusCode, `${route.url} ${JSON.stringify(headers)}`).toBe(401);
          expect(response.json().message).toMatch(message);
        }
      }
      expect(await count('jobs')).toBe(0);
    });
  });

  describe('jobs', () => {
    it('creating twice with the same key and body makes one job: 201, then 200 with the same job', async () => {
      const first = await createJob('msg-m-1');
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({
        id: expect.any(String),
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme-clinic',
        state: 'queued',
        attempts: 0,
        priority: 2,
        data: annotationJob.data,
        completedAt: null,
        result: null,
      });
      // Same body, keys in another order: still the same request.
      const reordered = Object.fromEntries(Object.entries(annotationJob).reverse());
      const again = await createJob('msg-m-1', reordered);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(await count('jobs')).toBe(1);
      expect(await count('outbox_events')).toBe(1);
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${first.json().id}`,
        headers: withKey(),
      });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(first.json());
    });

    it('a new job, its audit entry and its job.created event are stored together: the event carries the job as the answer shows it', async () => {
      const created = await createJob('msg-m-audit');
      expect(created.statusCode).toBe(201);
      const job = created.json<{ id: string }>();
      const events = await t.database.db
        .selectFrom('outbox_events')
        .select(['type', 'data'])
        .where('job_id', '=', job.id)
        .execute();
      expect(events).toEqual([{ type: 'job.created', data: { job: created.json() } }]);
      const audit = await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'outcome', 'resource_type', 'status_code', 'details'])
        .where('resource_type', '=', 'job')
        .where('resource_id', '=', job.id)
        .execute();
      expect(audit).toEqual([
        {
          action: 'integration.job.create',
          outcome: 'success',
          resource_type: 'job',
          status_code: 201,
          details: {
            apiKey: 'assistant-test',
            apiKeyId: keyId,
            apiKeyPrefix: key.slice(4, 12),
            idempotencyKey: 'msg-m-audit',
            queue: 'federated',
            type: 'message.annotation.job',
          },
        },
      ]);
    });

    it('concurrent creates with one key still make one job', async () => {
      const answers = await Promise.all(Array.from({ length: 5 }, () => createJob('race-1')));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
      expect(new Set(answers.map((a) => a.json<{ id: string }>().id)).size).toBe(1);
      expect(await count('jobs')).toBe(1);
    });

    it('reusing a key with a different body is a 409 and changes nothing', async () => {
      const first = await createJob('msg-m-2');
      const conflicting = await createJob('msg-m-2', { ...annotationJob, tenant: 'other' });
      expect(conflicting.statusCode).toBe(409);
      expect(conflicting.json()).toEqual({
        error: 'Conflict',
        message: expect.stringContaining(
          `already used for a different request (job ${first.json().id})`,
        ),
      });
      expect(await count('jobs')).toBe(1);
      expect(await count('outbox_events')).toBe(1);
    });

    it('an unknown queue is a 400 naming body.queue, and creates nothing', async () => {
      const response = await createJob('bad-queue', { ...annotationJob, queue: 'nonsense' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'Bad Request',
        message: expect.stringContaining('body.queue'),
        details: [{ path: 'body.queue', message: expect.any(String) }],
      });
      expect(await count('jobs')).toBe(0);
      expect(await count('outbox_events')).toBe(0);
    });

    it('other bad bodies and a missing Idempotency-Key are 400s naming the field', async () => {
      const cases: [Record<string, unknown>, string, string | null][] = [
        [{ ...annotationJob, type: 'made.up.job' }, 'body.type', 'k1'],
        [{ ...annotationJob, data: 'text' }, 'body.data', 'k2'],
        [{ ...annotationJob, prority: 3 }, 'body', 'k3'],
        [annotationJob, 'headers.idempotency-key', null],
        [annotationJob, 'headers.idempotency-key', 'x'.repeat(201)],
      ];
      for (const [body, path, idempotencyKey] of cases) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/v1/jobs',
          headers: {
            ...withKey(),
            ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
          },
          payload: body,
        });
        expect(response.statusCode, path).toBe(400);
        expect(
          response.json<{ details: { path: string }[] }>().details.map((d) => d.path),
          path,
        ).toContain(path);
      }
      expect(await count('jobs')).toBe(0);
      // The manual RPA step, which the portal shows, is accepted.
      expect(
        (
          await createJob('rpa-1', {
            ...annotationJob,
            type: 'robot-process-automation.manual-step.job',
            data: { portal: 'https://emr.example.test/step/1' },
          })
        ).statusCode,
      ).toBe(201);
    });

    it('another robot-process-automation step is refused with what to send instead, and creates nothing', async () => {
      const response = await createJob('rpa-other', {
        ...annotationJob,
        type: 'robot-process-automation.invoice-upload.job',
        data: { portal: 'https://emr.example.test/step/2' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'Bad Request',
        details: [
          {
            path: 'body.type',
            message:
              'robot-process-automation.invoice-upload.job is an RPA step the portal cannot show: send it as robot-process-automation.manual-step.job (the manual step, with data.portal the address where the technician does it)',
          },
        ],
      });
      expect(await count('jobs')).toBe(0);
      expect(await count('outbox_events')).toBe(0);
    });

    it('an unknown job is a 404; a malformed id a 400', async () => {
      const missing = await t.app.inject({
        method: 'GET',
        url: '/api/v1/jobs/00000000-0000-4000-8000-000000000000',
        headers: withKey(),
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toMatch(/No job with the id/);
      const malformed = await t.app.inject({
        method: 'GET',
        url: '/api/v1/jobs/123',
        headers: withKey(),
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().details[0].path).toBe('params.id');
    });

    it('cancelling writes the state and a job.cancelled event in one transaction; a second cancel is a 409', async () => {
      const job = (await createJob('to-cancel')).json();
      const cancel = () =>
        t.app.inject({ method: 'POST', url: `/api/v1/jobs/${job.id}/cancel`, headers: withKey() });
      const cancelled = await cancel();
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ id: job.id, state: 'cancelled' });
      const row = await t.database.db
        .selectFrom('jobs')
        .select('state')
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow();
      expect(row.state).toBe('cancelled');
      const events = await t.database.db
        .selectFrom('outbox_events')
        .selectAll()
        .where('job_id', '=', job.id)
        .orderBy('cursor')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['job.created', 'job.cancelled']);
      expect(events[1]?.data).toMatchObject({
        previousState: 'queued',
        job: { id: job.id, state: 'cancelled' },
      });
      const second = await cancel();
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toMatch(/is cancelled: only a queued or assigned job/);
      expect(
        await t.database.db
          .selectFrom('outbox_events')
          .selectAll()
          .where('job_id', '=', job.id)
          .execute(),
      ).toHaveLength(2);
      const audit = await t.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'integration.job.cancel')
        .where('resource_id', '=', job.id)
        .execute();
      expect(audit[0]?.details).toMatchObject({
        apiKey: 'assistant-test',
        previousState: 'queued',
      });
    });

    it('an assigned job can be cancelled; a completed one cannot', async () => {
      const repo = createJobsRepository(t.database.db);
      const user = (await tokenForRoles(t, 'tech@example.test', ['annotator'])).userId;
      const held = (await createJob('held')).json();
      await repo.claim('federated', user, 60_000);
      const cancelled = await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${held.id}/cancel`,
        headers: withKey(),
      });
      expect(cancelled.json()).toMatchObject({ state: 'cancelled', attempts: 1 });
      const done = (await createJob('done')).json();
      await repo.claim('federated', user, 60_000);
      await repo.complete(done.id, user, { entities: [] });
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${done.id}/cancel`,
        headers: withKey(),
      });
      expect(refused.statusCode).toBe(409);
      expect((await repo.findById(done.id))?.state).toBe('completed');
    });
  });

  describe('the outbox', () => {
    it('the pull feed returns events in order, and after=<last> returns none', async () => {
      const a = (await createJob('feed-a')).json();
      const b = (await createJob('feed-b')).json();
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${a.id}/cancel`,
        headers: withKey(),
      });
      const read = (query: string) =>
        t.app.inject({ method: 'GET', url: `/api/v1/events${query}`, headers: withKey() });
      await feedCaughtUp(t.database.db);
      const all = await read('');
      expect(all.statusCode).toBe(200);
      const { events, nextCursor } = all.json<Feed>();
      expect(events.map((e) => [e.type, e.jobId])).toEqual([
        ['job.created', a.id],
        ['job.created', b.id],
        ['job.cancelled', a.id],
      ]);
      // Positions are `{transaction}_{sequence}` and the feed is in that order.
      const positions = events.map((e) => e.cursor.split('_').map((part) => BigInt(part)));
      const sorted = [...positions].sort(([xt = 0n, xs = 0n], [yt = 0n, ys = 0n]) =>
        xt === yt ? Number(xs - ys) : xt < yt ? -1 : 1,
      );
      expect(sorted).toEqual(positions);
      expect(nextCursor).toBe(events[2]?.cursor);
      expect(events[0]).toMatchObject({
        id: expect.any(String),
        data: { job: { id: a.id, state: 'queued', data: annotationJob.data } },
        createdAt: expect.any(String),
      });
      const paged = (await read(`?after=${events[0]?.cursor}&limit=1`)).json<Feed>();
      expect(paged.events.map((e) => e.id)).toEqual([events[1]?.id]);
      expect(paged.nextCursor).toBe(events[1]?.cursor);
      const none = (await read(`?after=${nextCursor}`)).json<Feed>();
      expect(none).toEqual({ events: [], nextCursor });
      const bad = await read('?after=yesterday&limit=1000');
      expect(bad.statusCode).toBe(400);
      expect(
        bad
          .json<{ details: { path: string }[] }>()
          .details.map((d) => d.path)
          .sort(),
      ).toEqual(['querystring.after', 'querystring.limit']);
    });

    it('the feed never passes an event whose transaction is still open (PostgreSQL)', async (ctx) => {
      if (t.database.kind !== 'postgres') {
        ctx.skip();
      }
      const read = async (after: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/v1/events?after=${after}`,
            headers: withKey(),
          })
        ).json<Feed>();
      const start = (await read('0_0')).nextCursor;
      const job = (await createJob('slow-writer')).json();
      // The cursor must be past the job's own event: wait out another file's open transaction.
      await feedCaughtUp(t.database.db);
      const before = (await read(start)).nextCursor;
      // First, a slow writer opens a transaction and records an event, but does not commit yet.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let recorded: () => void = () => undefined;
      const wrote = new Promise<void>((resolve) => (recorded = resolve));
      const slow = t.database.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', job.id)
          .executeTakeFirstOrThrow();
        await recordJobEvent(trx, 'job.requeued', row);
        recorded();
        await held;
      });
      await wrote;
      // Second, a quick writer commits an event after it.
      await createJob('quick-writer');
      // A reader sees neither: the quick event waits behind the open transaction.
      expect((await read(before)).events).toEqual([]);
      release();
      await slow;
      // Another test file's open transaction may hold the cluster-wide horizon for a moment.
      await feedCaughtUp(t.database.db);
      const after = await read(before);
      expect(after.events.map((e) => e.type)).toEqual(['job.requeued', 'job.created']);
    });

    it('recordJobEvent joins the caller’s transaction: a rollback leaves no event', async () => {
      const repo = createJobsRepository(t.database.db);
      const user = (await tokenForRoles(t, 'tech2@example.test', ['annotator'])).userId;
      const job = (await createJob('hook')).json();
      await repo.claim('federated', user, 60_000);
      await t.database.db
        .transaction()
        .execute(async (trx) => {
          const done = await repo.complete(job.id, user, { entities: ['x'] }, trx);
          if (!done) {
            throw new Error('not completed');
          }
          await recordJobEvent(trx, 'job.completed', done);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect((await repo.findById(job.id))?.state).toBe('assigned');
      expect(await count('outbox_events')).toBe(1);
      // The realtime engine's hook commits the completion and its event together.
      await t.database.db.transaction().execute(async (trx) => {
        const done = await repo.complete(job.id, user, { entities: ['x'] }, trx);
        if (done) {
          await recordJobEvent(trx, 'job.completed', done, {
            submission: { type: 'message.annotation', userId: user },
          });
        }
      });
      const events = await t.database.db
        .selectFrom('outbox_events')
        .selectAll()
        .orderBy('cursor')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['job.created', 'job.completed']);
      expect(events[1]?.data).toMatchObject({
        job: { state: 'completed', result: { entities: ['x'] } },
        submission: { type: 'message.annotation', userId: user },
      });
      // This server has no webhook: the event is for the pull feed alone, with no delivery.
      expect(await count('webhook_deliveries')).toBe(0);
    });
  });
});
