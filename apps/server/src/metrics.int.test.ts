import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/harness.ts';
import { tokenForRoles } from './test/tokens.ts';
import { openSocket, type TestSocket } from './test/socket-client.ts';
import { createJobsRepository } from './modules/jobs/repository.ts';
import { recordJobEvent } from './modules/jobs/events.ts';

const TOKEN = 'metrics-token-0123456789abcdefghijklmnop';

/** The value of one sample line (`name{labels} value`) of a Prometheus text body. */
function sample(body: string, name: string, labels = ''): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The refusals of GET /metrics in the audit trail. */
async function refusals(t: TestApp): Promise<(number | null)[]> {
  const rows = await t.database.db
    .selectFrom('audit_events')
    .select('status_code')
    .where('action', '=', 'request.refused')
    .where(sql<boolean>`details->>'url' = '/metrics'`)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.status_code);
}

describe('GET /metrics without METRICS_TOKEN: loopback only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves a direct request from loopback, and refuses other addresses and proxied requests with 403', async () => {
    const local = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    expect(local.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const local6 = await t.app.inject({ url: '/metrics', remoteAddress: '::ffff:127.0.0.1' });
    expect(local6.statusCode).toBe(200);

    const remote = await t.app.inject({ url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toEqual({
      error: 'Forbidden',
      message: expect.stringMatching(/METRICS_ALLOW.*came from 10\.1\.2\.3/),
    });
    // A reverse proxy on the same host connects from loopback for anyone: not trusted.
    const proxied = await t.app.inject({
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
    // Without a token configured, any token is wrong.
    const guessed = await t.app.inject({
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(guessed.statusCode).toBe(401);
    expect(await refusals(t)).toEqual([403, 403, 401]);
  });

  it('counts requests that matched no route under one label, never their URL', async () => {
    const missing = await t.app.inject({ url: '/internal/no-such-thing/4f1c9e' });
    expect(missing.statusCode).toBe(404);
    const body = (await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    expect(
      sample(
        body,
        'loopdesk_http_request_duration_seconds_count',
        '{route="unmatched",method="GET",status_class="4xx"}',
      ),
    ).toBe(1);
    expect(body).not.toContain('4f1c9e');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let socket: TestSocket | undefined;
  const scrape = async () => {
    const response = await t.app.inject({
      url: '/metrics',
      remoteAddress: '198.51.100.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    // Deliveries are recorded as on a node with a webhook (no worker runs): they stay pending.
    t = await startTestApp({
      listen: true,
      webhookDeliveries: true,
      env: { METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.9.0.0/16' },
    });
  });
  afterAll(async () => {
    socket?.ws.close();
    await t.close();
  });

  it('refuses a request without the token or with a wrong one (401), and serves METRICS_ALLOW', async () => {
    const none = await t.app.inject({ url: '/metrics', remoteAddress: '198.51.100.7' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.json()).toMatchObject({ error: 'Unauthorized' });
    // A token set means loopback is no longer served without it, unless METRICS_ALLOW says so.
    const local = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(401);
    const wrong = await t.app.inject({
      url: '/metrics',
      remoteAddress: '198.51.100.7',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const allowed = await t.app.inject({ url: '/metrics', remoteAddress: '10.9.4.5' });
    expect(allowed.statusCode).toBe(200);
    expect(await refusals(t)).toEqual([401, 401, 401]);
  });

  it('serves every family with real values: requests, queues, dispatch, sockets, outbox lag, pools, process', async () => {
    // A request with an id in its URL is counted under its route pattern.
    const admin = await tokenForRoles(t, 'ada@example.test', ['admin']);
    const userId = Buffer.from(admin.userId).toString('base64');
    const me = await t.app.inject({
      url: `/internal/users/${userId}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(me.statusCode).toBe(200);

    const before = await scrape();
    expect(sample(before, 'loopdesk_sockets_open', '{kind="federated"}')).toBe(0);
    expect(sample(before, 'loopdesk_outbox_lag_seconds')).toBe(0);
    expect(sample(before, 'loopdesk_jobs', '{queue="federated",state="queued"}')).toBeUndefined();

    // The assistant stores a job (with its outbox event and its pending webhook delivery).
    const jobs = createJobsRepository(t.database.db);
    const job = await t.database.db.transaction().execute(async (trx) => {
      const row = await jobs.enqueue(
        { queue: 'federated', type: 'message.annotation.job', tenant: 'acme', payload: {} },
        trx,
      );
      await recordJobEvent(trx, 'job.created', row);
      return row;
    });
    await sql`update outbox_events set created_at = now() - interval '90 seconds'`.execute(
      t.database.db,
    );
    const queued = await scrape();
    expect(sample(queued, 'loopdesk_jobs', '{queue="federated",state="queued"}')).toBe(1);
    expect(sample(queued, 'loopdesk_jobs', '{queue="federated",state="assigned"}')).toBe(0);
    expect(sample(queued, 'loopdesk_outbox_lag_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(queued, 'loopdesk_webhook_deliveries', '{state="pending"}')).toBe(1);
    expect(sample(queued, 'loopdesk_webhook_deliveries', '{state="dead"}')).toBe(0);

    // Ann opens her socket and takes the job: a socket open, the job assigned, one dispatch.
    const ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    socket = await openSocket(t.baseUrl, '/ws/federated', ann.token);
    await socket.next('technician.session.paused');
    socket.send('technician.session.activate');
    const frame = await socket.next('message.annotation.job');
    expect(frame.data.jobId).toBe(job.id);

    const body = await scrape();
    expect(sample(body, 'loopdesk_sockets_open', '{kind="federated"}')).toBe(1);
    expect(sample(body, 'loopdesk_sockets_open', '{kind="exceptions"}')).toBe(0);
    expect(sample(body, 'loopdesk_sockets_open', '{kind="priority"}')).toBe(0);
    expect(sample(body, 'loopdesk_jobs', '{queue="federated",state="queued"}')).toBe(0);
    expect(sample(body, 'loopdesk_jobs', '{queue="federated",state="assigned"}')).toBe(1);
    expect(
      sample(body, 'loopdesk_dispatch_latency_seconds_count', '{queue="federated"}'),
    ).toBeGreaterThanOrEqual(1);
    // The steps of the job's path: the claim pass that found it, and its frame.
    expect(
      sample(body, 'loopdesk_job_step_seconds_count', '{step="dispatch.pass"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(body, 'loopdesk_job_step_seconds_count', '{step="frame.send"}'),
    ).toBeGreaterThanOrEqual(1);

    expect(
      sample(
        body,
        'loopdesk_http_request_duration_seconds_count',
        '{route="/internal/users/:userId",method="GET",status_class="2xx"}',
      ),
    ).toBe(1);
    expect(body).not.toContain(userId);
    expect(
      sample(
        body,
        'loopdesk_http_request_duration_seconds_count',
        '{route="/metrics",method="GET",status_class="4xx"}',
      ),
    ).toBe(3);

    // Embedded PGlite: one pool of one connection.
    expect(sample(body, 'loopdesk_db_pool_connections', '{pool="main",state="max"}')).toBe(
      t.database.kind === 'pglite' ? 1 : 10,
    );
    expect(
      sample(body, 'loopdesk_db_pool_connections', '{pool="main",state="total"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'loopdesk_db_pool_waiting', '{pool="main"}')).toBe(0);
    // The runtime's own metrics.
    expect(sample(body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });
});
