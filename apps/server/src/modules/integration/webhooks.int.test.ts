import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { feedCaughtUp } from '../../test/outbox.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { createApiKeysService } from './api-keys.ts';
import { backoffMs, WebhookWorker } from './webhook-worker.ts';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** The assistant's webhook, played by a local server that answers what the test says. */
async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  answer: (status: number) => void;
  answers: number[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const answers: number[] = [];
  let fallback = 200;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      response.statusCode = answers.shift() ?? fallback;
      response.end(response.statusCode >= 300 ? 'assistant is down' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/loopdesk`,
    received,
    answers,
    answer: (status) => {
      fallback = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * What the assistant does with each request: verify it with the Standard Webhooks reference
 * library (`standardwebhooks`): signature, id and a timestamp within its tolerance.
 */
function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      return false;
    }
    throw error;
  }
}

async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 5000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('webhook delivery of the outbox to the assistant', () => {
  let t: TestApp;
  let key: string;
  let admin: string;
  let annotator: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const workers: WebhookWorker[] = [];

  beforeAll(async () => {
    // The workers below play the node's delivery worker: the server records deliveries as a
    // node with ASSISTANT_WEBHOOK_URL does, without starting a worker of its own.
    t = await startTestApp({ webhookDeliveries: true });
    key = (
      await createApiKeysService(t.database.db).create(
        'assistant',
        { userId: null, email: null, via: 'cli' },
        { ip: null, userAgent: null, requestId: null },
      )
    ).key;
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
  });
  beforeEach(async () => {
    receiver = await startReceiver();
    await sql`delete from webhook_deliveries`.execute(t.database.db);
    await sql`delete from outbox_events`.execute(t.database.db);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await receiver.close();
  });
  afterAll(async () => {
    await t.close();
  });

  const worker = (options: { maxAttempts?: number; baseDelayMs?: number } = {}) => {
    const created = new WebhookWorker({
      db: t.database.db,
      url: receiver.url,
      secret: SECRET,
      maxAttempts: options.maxAttempts ?? 5,
      pollMs: 10,
      baseDelayMs: options.baseDelayMs ?? 20,
      maxDelayMs: 1000,
      timeoutMs: 2000,
    });
    workers.push(created);
    return created;
  };
  const createJob = async (idempotencyKey: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
      payload: { queue: 'priority', type: 'intent.hpi.priority.job', tenant: 'acme', data: {} },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>();
  };
  const delivery = (jobId: string) =>
    t.database.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .where('e.job_id', '=', jobId)
      .executeTakeFirstOrThrow();
  const asAdmin = (token = admin) => ({ authorization: `Bearer ${token}` });

  it('a delivery carries Standard Webhooks headers and a signature that verifies with the secret', async () => {
    const job = await createJob(`sig-${randomBytes(4).toString('hex')}`);
    worker().start();
    const request = await until(() => receiver.received[0]);
    expect(request.headers['content-type']).toBe('application/json');
    expect(verify(SECRET, request.headers, request.body)).toBe(true);
    expect(
      verify(`whsec_${randomBytes(32).toString('base64')}`, request.headers, request.body),
    ).toBe(false);
    // Tampered deliveries are refused by the reference library: another body, id or time.
    expect(verify(SECRET, request.headers, request.body.replace('job.created', 'job.dead'))).toBe(
      false,
    );
    expect(verify(SECRET, { ...request.headers, 'webhook-id': 'forged' }, request.body)).toBe(
      false,
    );
    const stale = String(Number(request.headers['webhook-timestamp']) - 600);
    expect(verify(SECRET, { ...request.headers, 'webhook-timestamp': stale }, request.body)).toBe(
      false,
    );
    const event = JSON.parse(request.body);
    expect(event).toMatchObject({
      type: 'job.created',
      jobId: job.id,
      data: { job: { id: job.id } },
    });
    expect(request.headers['webhook-id']).toBe(event.id);
    // The body is the pull feed's event, byte for byte the same content.
    await feedCaughtUp(t.database.db);
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(feed.json().events).toContainEqual(event);
    const row = await until(async () => {
      const current = await delivery(job.id);
      return current.delivered_at ? current : undefined;
    });
    expect(row).toMatchObject({
      attempts: 1,
      dead_at: null,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('a 500 answer is retried with growing delays, and a later 200 marks it delivered', async () => {
    receiver.answers.push(500, 500, 500);
    const job = await createJob(`retry-${randomBytes(4).toString('hex')}`);
    worker({ baseDelayMs: 40 }).start();
    await until(() => (receiver.received.length >= 4 ? true : undefined));
    const row = await until(async () => {
      const current = await delivery(job.id);
      return current.delivered_at ? current : undefined;
    });
    expect(row.attempts).toBe(4);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const gaps = receiver.received.slice(1).map((r, i) => r.at - (receiver.received[i]?.at ?? 0));
    // Equal jitter: attempt n waits between half and all of 40 ms × 2^(n-1).
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(38);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
    expect(receiver.received.every((r) => verify(SECRET, r.headers, r.body))).toBe(true);
  });

  it('backoff doubles from the base, is capped, and jitters within half a step', () => {
    const options = { baseMs: 1000, factor: 2, capMs: 600_000 };
    expect([1, 2, 3, 4].map((n) => backoffMs(n, options, () => 1))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(backoffMs(3, options, () => 0)).toBe(2000);
    expect(backoffMs(30, options, () => 1)).toBe(600_000);
  });

  it('after the limit the delivery is dead; an admin redelivers it with the same webhook-id', async () => {
    receiver.answer(500);
    const job = await createJob(`dead-${randomBytes(4).toString('hex')}`);
    worker({ maxAttempts: 3, baseDelayMs: 5 }).start();
    const dead = await until(async () => {
      const current = await delivery(job.id);
      return current.dead_at ? current : undefined;
    });
    expect(dead).toMatchObject({ attempts: 3, next_attempt_at: null });
    expect(dead.last_error).toMatch(/^HTTP 500: assistant is down/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received).toHaveLength(3);
    const eventId = String(receiver.received[0]?.headers['webhook-id']);

    // Admins see it among the dead; others may not look.
    const list = await t.app.inject({
      method: 'GET',
      url: '/internal/integration/webhook-deliveries?state=dead',
      headers: asAdmin(),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().deliveries).toEqual([
      expect.objectContaining({
        eventId,
        jobId: job.id,
        type: 'job.created',
        state: 'dead',
        attempts: 3,
        lastError: expect.stringMatching(/HTTP 500/),
      }),
    ]);
    const redeliverUrl = `/internal/integration/webhook-deliveries/${eventId}/_redeliver`;
    for (const url of ['/internal/integration/webhook-deliveries', redeliverUrl]) {
      const method = url === redeliverUrl ? 'POST' : 'GET';
      expect((await t.app.inject({ method, url, headers: asAdmin(annotator) })).statusCode).toBe(
        403,
      );
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }

    receiver.answer(200);
    const redelivered = await t.app.inject({
      method: 'POST',
      url: redeliverUrl,
      headers: asAdmin(),
    });
    expect(redelivered.statusCode).toBe(200);
    expect(redelivered.json()).toMatchObject({ eventId, state: 'pending', attempts: 0 });
    const delivered = await until(async () => {
      const current = await delivery(job.id);
      return current.delivered_at ? current : undefined;
    });
    expect(delivered).toMatchObject({ attempts: 1, dead_at: null });
    const last = receiver.received.at(-1);
    expect(last?.headers['webhook-id']).toBe(eventId);
    expect(verify(SECRET, last?.headers ?? {}, last?.body ?? '')).toBe(true);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'integration.webhook.redeliver')
      .where('resource_id', '=', eventId)
      .execute();
    expect(audit[0]).toMatchObject({ actor_email: 'ada@example.test', outcome: 'success' });

    // Delivered events may be redelivered too; a pending one, or an unknown id, may not.
    const delivering = await t.app.inject({
      method: 'POST',
      url: redeliverUrl,
      headers: asAdmin(),
    });
    expect(delivering.statusCode).toBe(200);
    await until(async () => ((await delivery(job.id)).delivered_at ? true : undefined));
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/webhook-deliveries/00000000-0000-4000-8000-000000000000/_redeliver',
      headers: asAdmin(),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('a pending delivery needs no redelivery: 409', async () => {
    const job = await createJob(`pending-${randomBytes(4).toString('hex')}`);
    const { event_id } = await delivery(job.id);
    const response = await t.app.inject({
      method: 'POST',
      url: `/internal/integration/webhook-deliveries/${event_id}/_redeliver`,
      headers: asAdmin(),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/still pending delivery/);
  });

  it('two workers (two nodes) deliver each event exactly once', async () => {
    const jobs = [];
    for (let i = 0; i < 12; i++) {
      jobs.push(await createJob(`pair-${i}-${randomBytes(4).toString('hex')}`));
    }
    worker().start();
    worker().start();
    await until(() => (receiver.received.length >= 12 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('buildApp runs the worker when ASSISTANT_WEBHOOK_URL is set, and stops it on close', async () => {
    const other = await startTestApp({
      env: {
        ASSISTANT_WEBHOOK_URL: receiver.url,
        ASSISTANT_WEBHOOK_SECRET: SECRET,
        WEBHOOK_POLL_MS: '20',
      },
    });
    try {
      const { key: otherKey } = await createApiKeysService(other.database.db).create(
        'assistant',
        { userId: null, email: null, via: 'cli' },
        { ip: null, userAgent: null, requestId: null },
      );
      const created = await other.app.inject({
        method: 'POST',
        url: '/api/v1/jobs',
        headers: { authorization: `Bearer ${otherKey}`, 'idempotency-key': 'boot-1' },
        payload: { queue: 'federated', type: 'message.annotation.job', tenant: 't', data: {} },
      });
      const request = await until(() => receiver.received[0]);
      expect(JSON.parse(request.body)).toMatchObject({
        type: 'job.created',
        jobId: created.json().id,
      });
      expect(verify(SECRET, request.headers, request.body)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('without a webhook, events go to the pull feed alone: no delivery is recorded, whoever writes the event', async () => {
    const plain = await startTestApp();
    try {
      const { key: plainKey } = await createApiKeysService(plain.database.db).create(
        'assistant',
        { userId: null, email: null, via: 'cli' },
        { ip: null, userAgent: null, requestId: null },
      );
      const created = await plain.app.inject({
        method: 'POST',
        url: '/api/v1/jobs',
        headers: { authorization: `Bearer ${plainKey}`, 'idempotency-key': 'feed-only-1' },
        payload: { queue: 'federated', type: 'message.annotation.job', tenant: 't', data: {} },
      });
      expect(created.statusCode).toBe(201);
      const cancelled = await plain.app.inject({
        method: 'POST',
        url: `/api/v1/jobs/${created.json().id}/cancel`,
        headers: { authorization: `Bearer ${plainKey}` },
      });
      expect(cancelled.statusCode).toBe(200);
      // A writer that inserts the delivery itself (the realtime engine's completing statement).
      await sql`
        with event as (
          insert into outbox_events (type, job_id, data)
          values ('job.requeued', ${created.json().id}, '{}'::jsonb) returning id
        )
        insert into webhook_deliveries (event_id, next_attempt_at) select id, now() from event
      `.execute(plain.database.db);

      await feedCaughtUp(plain.database.db);
      const feed = await plain.app.inject({
        method: 'GET',
        url: '/api/v1/events',
        headers: { authorization: `Bearer ${plainKey}` },
      });
      const events = feed.json<{ events: { id: string; type: string }[] }>().events;
      expect(events.map((e) => e.type)).toEqual(['job.created', 'job.cancelled', 'job.requeued']);
      const rows = await plain.database.db.selectFrom('webhook_deliveries').selectAll().execute();
      expect(rows).toEqual([]);
      const adminToken = (await tokenForRoles(plain, 'ada@example.test', ['admin'])).token;
      const list = await plain.app.inject({
        method: 'GET',
        url: '/internal/integration/webhook-deliveries',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(list.json()).toEqual({ deliveries: [] });
      const eventId = events[0]?.id ?? '';
      const redeliver = await plain.app.inject({
        method: 'POST',
        url: `/internal/integration/webhook-deliveries/${eventId}/_redeliver`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(redeliver.statusCode).toBe(409);
      expect(redeliver.json().message).toBe(
        'No webhook is configured (ASSISTANT_WEBHOOK_URL is unset): there is nothing to deliver to; the event is in the pull feed.',
      );
      expect(
        await plain.database.db.selectFrom('webhook_deliveries').selectAll().execute(),
      ).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('a webhook URL without its secret stops the configuration with a clear message', async () => {
    await expect(startTestApp({ env: { ASSISTANT_WEBHOOK_URL: receiver.url } })).rejects.toThrow(
      /ASSISTANT_WEBHOOK_SECRET: is required when ASSISTANT_WEBHOOK_URL is set/,
    );
    await expect(
      startTestApp({ env: { ASSISTANT_WEBHOOK_URL: receiver.url, ASSISTANT_WEBHOOK_SECRET: 'x' } }),
    ).rejects.toThrow(/ASSISTANT_WEBHOOK_SECRET.*must be whsec_/);
  });
});
