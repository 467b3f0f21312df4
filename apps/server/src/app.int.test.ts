import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test/harness.ts';
import { tokenForRoles } from './test/tokens.ts';

const b64 = (value: string) => Buffer.from(value).toString('base64');

describe('the HTTP app', () => {
  let t: TestApp;
  let web: string;
  let annotator: string;
  let admin: string;

  beforeAll(async () => {
    // A stand-in for apps/web/dist: the server serves whatever the build produced.
    web = mkdtempSync(path.join(tmpdir(), 'loopdesk-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Loopdesk</title>');
    writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log("portal");');
    t = await startTestApp({ env: { WEB_DIST: web, SIGN_IN_RATE_LIMIT: '2' } });
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('serves the built portal, with history fallback for its deep links (GET and HEAD)', async () => {
    for (const url of ['/', '/jobs/federated', '/admin/user-management?x=1']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body).toContain('<title>Loopdesk</title>');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/jobs/federated' });
    expect(head.statusCode).toBe(200);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("portal");');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A rebuild while the server runs: its new asset is served at once; a missing one is a 404.
    writeFileSync(path.join(web, 'assets', 'rebuilt.js'), 'console.log("rebuilt");');
    const rebuilt = await t.app.inject({ method: 'GET', url: '/assets/rebuilt.js' });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toBe('console.log("rebuilt");');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/gone.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('answers unknown API paths with a 404 in the error shape, not the portal', async () => {
    for (const [method, url] of [
      ['GET', '/internal/nothing'],
      ['GET', '/api/v1/nothing'],
      ['POST', '/jobs/federated'],
      ['GET', '/auth/nothing'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({
        error: 'Not Found',
        message: `No route ${method} ${url}. Check the path against the API route table.`,
      });
    }
  });

  it('sends security headers and the request id on every answer', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'trace-me' },
    });
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers).toMatchObject({
      'x-request-id': 'trace-me',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin-allow-popups',
    });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    // Plain http here: no HSTS (it is sent when PUBLIC_URL is https).
    expect(response.headers['strict-transport-security']).toBeUndefined();
    const generated = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a caller's X-Request-ID only when well formed; any other is replaced, in the answer and in the audit trail", async () => {
    const uuid = '3f1c2b9e-5a47-4d2e-9c1a-0b6e8f7d2a10';
    for (const given of ['trace-me', uuid, 'A'.repeat(64)]) {
      const kept = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': given } });
      expect(kept.headers['x-request-id']).toBe(given);
    }
    const forged = [
      'A'.repeat(65),
      'x; drop table audit_events',
      'trace me',
      'trace\u0000me',
      '"},{"level":60,"msg":"forged"',
      'café',
      '',
    ];
    for (const given of forged) {
      // Refused (no token): the refusal's audit row carries the request id.
      const response = await t.app.inject({
        url: '/internal/users/me',
        headers: { 'x-request-id': given },
      });
      expect(response.statusCode).toBe(401);
      const id = response.headers['x-request-id'];
      expect(id, given).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      // The refusal's audit row carries the new id; none carries what the caller sent (a text
      // with NUL is not even storable, so it is not looked for).
      const ids = [String(id), ...(given.includes('\u0000') ? [] : [given])];
      const rows = await t.database.db
        .selectFrom('audit_events')
        .select('request_id')
        .where('request_id', 'in', ids)
        .execute();
      expect(rows, given).toEqual([{ request_id: id }]);
    }
    // The header given twice is not a well-formed id either.
    const twice = await t.app.inject({
      url: '/healthz',
      headers: { 'x-request-id': ['one', 'two'] },
    });
    expect(twice.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers every error in one shape { error, message, details? }', async () => {
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const bobKey = b64('ann@example.test');
    const cases: [number, string, Promise<{ statusCode: number; json(): unknown }>][] = [
      [
        400,
        'Bad Request',
        t.app.inject({
          method: 'PATCH',
          url: `/internal/users/${bobKey}`,
          headers: as(admin),
          payload: { permissions: { roles: 'admin' } },
        }),
      ],
      [401, 'Unauthorized', t.app.inject({ method: 'GET', url: '/internal/users/me' })],
      [
        403,
        'Forbidden',
        t.app.inject({ method: 'GET', url: `/internal/users/${bobKey}`, headers: as(annotator) }),
      ],
      [
        404,
        'Not Found',
        t.app.inject({
          method: 'GET',
          url: `/internal/users/${b64('nobody@example.test')}`,
          headers: as(admin),
        }),
      ],
      [
        409,
        'Conflict',
        t.app.inject({
          method: 'POST',
          url: '/internal/users/me/_events',
          headers: as(annotator),
          payload: {
            specversion: '1.0',
            id: 'e1',
            type: 'dh.portal.hitl.event',
            source: '/portal',
            data: { jobId: '00000000-0000-4000-8000-000000000000' },
          },
        }),
      ],
      [
        413,
        'Payload Too Large',
        t.app.inject({
          method: 'PATCH',
          url: `/internal/users/${bobKey}`,
          headers: { ...as(admin), 'content-type': 'application/json' },
          payload: JSON.stringify({ padding: 'x'.repeat(1_100_000) }),
        }),
      ],
    ];
    for (const [status, error, pending] of cases) {
      const response = await pending;
      expect(response.statusCode, error).toBe(status);
      const body = response.json() as Record<string, unknown>;
      expect(body, error).toMatchObject({ error, message: expect.any(String) });
      expect(Object.keys(body).every((key) => ['error', 'message', 'details'].includes(key))).toBe(
        true,
      );
    }
    const bad = (await cases[0]?.[2])?.json() as { details: { path: string }[] };
    expect(bad.details[0]?.path).toBe('body.permissions.roles');

    // 429: sign-in is rate limited per address.
    let limited;
    for (let i = 0; i < 4; i++) {
      limited = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
    }
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json()).toEqual({
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many requests: wait \d+ seconds and try again\.$/),
    });
  });

  it('logs one JSON line per request with its request id; successful polls only at debug', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    const logged = await startTestApp({ logger: { level: 'info', stream } });
    try {
      const { token } = await tokenForRoles(logged, 'ann@example.test', ['annotator']);
      const auth = { authorization: `Bearer ${token}` };
      await logged.app.inject({
        method: 'GET',
        url: '/internal/queues/federated/_size',
        headers: auth,
      });
      await logged.app.inject({ method: 'GET', url: '/healthz' });
      await logged.app.inject({ method: 'GET', url: '/internal/users/me', headers: auth });
      await logged.app.inject({
        method: 'GET',
        url: '/internal/users/me',
        headers: { 'x-request-id': 'refused-1' },
      });
      const requests = lines.filter((line) => line.msg === 'request completed');
      expect(requests).toEqual([
        expect.objectContaining({
          level: 30,
          reqId: expect.any(String),
          req: { method: 'GET', url: '/internal/users/me' },
          res: { statusCode: 200 },
          responseTime: expect.any(Number),
        }),
        expect.objectContaining({
          level: 30,
          reqId: 'refused-1',
          res: { statusCode: 401 },
        }),
      ]);
    } finally {
      await logged.close();
    }
  });

  it('says the database is unreachable on /readyz, and a 500 never shows internals', async () => {
    const broken = await startTestApp();
    try {
      const { token } = await tokenForRoles(broken, 'ann@example.test', ['annotator']);
      expect((await broken.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
        status: 'ready',
      });
      // The database goes away under the running app.
      await broken.database.close();
      const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        error: 'Service Unavailable',
        message: 'The database is not reachable.',
      });
      const failed = await broken.app.inject({
        method: 'GET',
        url: '/internal/users/me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({
        error: 'Internal Server Error',
        message: 'Something went wrong on our side. The error has been logged; try again.',
      });
    } finally {
      await broken.app.close();
    }
  });
});
