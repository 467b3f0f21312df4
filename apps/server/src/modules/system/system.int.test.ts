import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

/** A tiny FHIR R4 server: `GET /r4/metadata` answers a CapabilityStatement (or `status`). */
function fhirServer(behaviour: { status: number; delayMs?: number }) {
  return new Promise<{ server: Server; base: string; asked: string[] }>((resolve) => {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      asked.push(`${request.method} ${request.url} ${request.headers.accept}`);
      setTimeout(() => {
        response.writeHead(behaviour.status, { 'content-type': 'application/fhir+json' });
        response.end(
          JSON.stringify({
            resourceType: 'CapabilityStatement',
            fhirVersion: '4.0.1',
            status: 'active',
          }),
        );
      }, behaviour.delayMs ?? 0);
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}/r4`, asked });
    });
  });
}

describe('the EMR check (GET /internal/experiment/health/_emr_test)', () => {
  let t: TestApp;
  let admin: string;
  let sysadmin: string;
  let fhir: Awaited<ReturnType<typeof fhirServer>>;
  let failing: Awaited<ReturnType<typeof fhirServer>>;
  let slow: Awaited<ReturnType<typeof fhirServer>>;

  beforeAll(async () => {
    fhir = await fhirServer({ status: 200 });
    failing = await fhirServer({ status: 503 });
    slow = await fhirServer({ status: 200, delayMs: 2000 });
    const closedPort = await freePort();
    t = await startTestApp({
      env: {
        EMR_SERVERS: [
          `acme=${fhir.base}/`,
          `broken=${failing.base}`,
          `slow=${slow.base}`,
          `gone=http://127.0.0.1:${closedPort}/r4`,
          'paper=none',
        ].join(','),
        EMR_TIMEOUT_SECONDS: '0.5',
      },
    });
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    sysadmin = (await tokenForRoles(t, 'sid@example.test', ['sysadmin'])).token;
    await t.database.db
      .insertInto('tenant_configurations')
      .values({
        id: 'kiwi-clinic',
        tenant: 'kiwi',
        display_name: 'Kiwi',
        emr: null,
        timezone: 'Pacific/Auckland',
      })
      .execute();
  });
  afterAll(async () => {
    await t.close();
    for (const { server } of [fhir, failing, slow]) {
      server.closeAllConnections();
      server.close();
    }
  });

  const check = (tenant: string | null, token = admin) =>
    t.app.inject({
      method: 'GET',
      url: '/internal/experiment/health/_emr_test',
      headers: {
        authorization: `Bearer ${token}`,
        ...(tenant === null ? {} : { 'x-tenant-id': tenant }),
      },
    });

  it("asks a tenant's FHIR R4 server for its metadata and reports its status and the time taken", async () => {
    const response = await check('acme');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 200,
      tenant: 'acme',
      emr: 'fhir-r4',
      url: `${fhir.base}/metadata`,
      tookMs: expect.any(Number),
      fhirVersion: '4.0.1',
    });
    expect(fhir.asked).toEqual(['GET /r4/metadata application/fhir+json']);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'system.emr_test')
      .execute();
    expect(audit[0]).toMatchObject({
      outcome: 'success',
      resource_id: 'acme',
      actor_email: 'ada@example.test',
    });
  });

  it('reports the status a failing server answers with', async () => {
    const response = await check('broken');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 503, emr: 'fhir-r4' });
  });

  it('a server that cannot be reached is a 502, one too slow a 504, each saying where', async () => {
    const gone = await check('gone');
    expect(gone.statusCode).toBe(502);
    expect(gone.json().message).toMatch(
      /^The FHIR server at http:\/\/127\.0\.0\.1:\d+\/r4\/metadata could not be reached/,
    );
    const late = await check('slow');
    expect(late.statusCode).toBe(504);
    expect(late.json().message).toBe(
      `The FHIR server at ${slow.base}/metadata did not answer within 500 ms.`,
    );
  });

  it('a known tenant without a configured server uses the built-in record store', async () => {
    const response = await check('kiwi');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 200,
      tenant: 'kiwi',
      emr: 'builtin',
      tookMs: expect.any(Number),
    });
  });

  it('a tenant without an EMR is a clear 404, audited', async () => {
    const unknown = await check('nowhere');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: 'Not Found',
      message:
        "No EMR for the tenant 'nowhere': Loopdesk knows no such tenant (no configuration, patient or conversation) and EMR_SERVERS names none for it.",
    });
    const none = await check('paper');
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe("The tenant 'paper' has no EMR: EMR_SERVERS sets it to none.");
    const failures = await t.database.db
      .selectFrom('audit_events')
      .select(['resource_id', 'status_code'])
      .where('action', '=', 'system.emr_test')
      .where('outcome', '=', 'failure')
      .execute();
    expect(failures).toEqual(
      expect.arrayContaining([{ resource_id: 'nowhere', status_code: 404 }]),
    );
  });

  it('without X-Tenant-ID it is a 400 naming the header; without the privilege a 403', async () => {
    const missing = await check(null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([
      { path: 'headers.x-tenant-id', message: 'must name the tenant whose EMR to check' },
    ]);
    expect((await check('acme', sysadmin)).statusCode).toBe(403);
  });

  it('EMR_SERVERS with an entry that is neither builtin, none nor a URL stops the start', async () => {
    await expect(startTestApp({ env: { EMR_SERVERS: 'acme=ftp://x' } })).rejects.toThrow(
      /EMR_SERVERS.*'acme=ftp:\/\/x' must be tenant=builtin, tenant=none or tenant=<http\(s\) URL of a FHIR R4 server>/s,
    );
  });
});

describe('the Redis dashboard without Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('says the node runs without Redis; admins without sysadmin are refused', async () => {
    const sysadmin = (await tokenForRoles(t, 'sid@example.test', ['sysadmin'])).token;
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const get = (token: string, query = '') =>
      t.app.inject({
        method: 'GET',
        url: `/internal/sysadmin/redis/_stats${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const response = await get(sysadmin);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      stats: { keys: {} },
      configured: false,
      keyCount: 0,
      nextCursor: null,
    });
    expect((await get(admin)).statusCode).toBe(403);
    const bad = await get(sysadmin, '?count=5000&cursor=abc');
    expect(bad.statusCode).toBe(400);
    const { details } = bad.json<{ details: { path: string }[] }>();
    expect(details.map((d) => d.path).sort()).toEqual(['querystring.count', 'querystring.cursor']);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the Redis dashboard with Redis', () => {
  let t: TestApp;
  let redis: Redis;
  const prefix = `loopdesk-test-stats-${Date.now()}:`;

  beforeAll(async () => {
    redis = new Redis(redisUrl ?? '');
    const pipeline = redis.pipeline();
    for (let i = 0; i < 25; i++) {
      pipeline.set(`${prefix}${i}`, 'x'.repeat(i * 100));
    }
    await pipeline.exec();
    t = await startTestApp({ env: { REDIS_URL: redisUrl ?? '' } });
  });
  afterAll(async () => {
    await t.close();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    if (keys.length) {
      await redis.del(...keys);
    }
    await redis.quit();
  });

  it('pages through the keys with their memory in bytes, and counts every key', async () => {
    const token = (await tokenForRoles(t, 'sid@example.test', ['sysadmin'])).token;
    const seen: Record<string, number> = {};
    let cursor = '0';
    let pages = 0;
    do {
      const response = await t.app.inject({
        method: 'GET',
        url: `/internal/sysadmin/redis/_stats?count=10&cursor=${cursor}&match=${encodeURIComponent(`${prefix}*`)}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{
        stats: { keys: Record<string, number> };
        configured: boolean;
        keyCount: number;
        nextCursor: string | null;
      }>();
      expect(body.configured).toBe(true);
      expect(body.keyCount).toBeGreaterThanOrEqual(25);
      // About 10 a page: SCAN's COUNT is a hint, and a batch is never split.
      expect(Object.keys(body.stats.keys).length).toBeLessThanOrEqual(20);
      Object.assign(seen, body.stats.keys);
      cursor = body.nextCursor ?? '0';
      pages += 1;
    } while (cursor !== '0' && pages < 50);
    expect(Object.keys(seen)).toHaveLength(25);
    expect(pages).toBeGreaterThanOrEqual(3);
    // The largest value takes more memory than the smallest.
    expect(seen[`${prefix}24`]).toBeGreaterThan(seen[`${prefix}0`] ?? Infinity);
  });
});
