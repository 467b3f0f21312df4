import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { runApiKeyCommand } from '../../cli.ts';

describe('the OpenAPI document and its UI at /docs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('the UI page loads under the security headers: its scripts come from the same origin', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'/);
    const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      // No inline script: script-src 'self' lets every one of them run.
      expect(inline?.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes ?? '')?.[1];
      expect(src).toBeDefined();
      const asset = await t.app.inject({
        method: 'GET',
        url: new URL(src ?? '', 'http://localhost/docs/').pathname,
      });
      expect(asset.statusCode, src).toBe(200);
      expect(asset.headers['content-type'], src).toMatch(/javascript/);
    }
    const initializer = await t.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-initializer.js',
    });
    expect(initializer.body).toContain('json');
  });

  it('the JSON document is OpenAPI 3.1, generated from the contracts, listing the assistant’s API', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      // The exception desk's conversations, configurations and physicians (issue 5).
      // Patients, their replies, push receipts and deep links (issue 15); documents (issue 12).
      '/api/v1/configurations/{id}',
      '/api/v1/consumers/{id}',
      '/api/v1/conversations/{id}',
      '/api/v1/conversations/{id}/handover',
      '/api/v1/conversations/{id}/messages',
      '/api/v1/deep-links/_verify',
      '/api/v1/documents',
      '/api/v1/events',
      '/api/v1/jobs',
      '/api/v1/jobs/{id}',
      '/api/v1/jobs/{id}/cancel',
      '/api/v1/notifications/{id}/receipt',
      '/api/v1/physicians/{id}',
      '/api/v1/requests',
      '/api/v1/requests/{id}/answer',
      '/api/v1/threads/{id}/messages',
    ]);
    // An upload's body is offered as multipart/form-data, from the table's `consumes`.
    expect(Object.keys(document.paths['/api/v1/documents'].post.requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
    const create = document.paths['/api/v1/jobs'].post;
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }),
    );
    const body = create.requestBody.content['application/json'].schema;
    expect(body.properties.queue.enum).toEqual([
      'federated',
      'exceptions',
      'exceptions-restricted',
      'hpi-summarisation',
      'priority',
    ]);
    expect(body.required).toEqual(expect.arrayContaining(['queue', 'type', 'tenant', 'data']));
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '409', '413', '415', '429', '500']),
    );
    expect(create.operationId).toBe('postJobs');
    expect(document.components.securitySchemes.apiKey).toMatchObject({ scheme: 'bearer' });
  });

  it('the portal’s document at /docs/internal/json lists the /internal routes, the admins’ among them', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/internal/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const keys = document.paths['/internal/integration/api-keys'];
    expect(keys.post).toMatchObject({
      operationId: 'postIntegrationApiKeys',
      tags: ['admin'],
      security: [{ staffToken: [] }],
    });
    expect(keys.post.description).toMatch(/users:permissions:update/);
    expect(Object.keys(keys.post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '413', '415', '500']),
    );
    expect(Object.keys(document.components.securitySchemes)).toEqual([
      'staffToken',
      'analyticsAddressToken',
      'analyticsViewToken',
    ]);
    // The built-in analytics page's own calls, with the token each sends.
    expect(document.paths['/internal/analytics/embed/_open'].get.security).toEqual([
      { analyticsAddressToken: [] },
    ]);
    expect(document.paths['/internal/analytics/embed/figures'].get.security).toEqual([
      { analyticsViewToken: [] },
    ]);
  });
});

describe('the api-key command', () => {
  let t: TestApp;
  const lines: { out: string[]; err: string[] } = { out: [], err: [] };
  const io = {
    out: (line: string) => lines.out.push(line),
    err: (line: string) => lines.err.push(line),
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('an operator creates a key, lists it without its secret, and revokes it', async () => {
    expect(await runApiKeyCommand(['create', 'assistant', 'staging'], t.database, io)).toBe(0);
    const key = lines.out.at(-1) ?? '';
    expect(key).toMatch(/^ldk_[0-9a-f]{8}_/);
    expect(lines.out[0]).toMatch(/Created API key 'assistant staging' \(id [0-9a-f-]{36}, prefix/);
    const id = /id ([0-9a-f-]{36})/.exec(lines.out[0] ?? '')?.[1] ?? '';

    const works = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(works.statusCode).toBe(200);

    lines.out.length = 0;
    expect(await runApiKeyCommand(['list'], t.database, io)).toBe(0);
    expect(lines.out).toHaveLength(1);
    expect(lines.out[0]).toContain(id);
    expect(lines.out[0]).toContain('active');
    expect(lines.out.join('\n')).not.toContain(key.slice(13));

    lines.out.length = 0;
    // The nodes remember keys they read: the CLI announces the revocation on the bus (Redis,
    // when REDIS_URL is set), and the node refuses the key at once.
    expect(await runApiKeyCommand(['revoke', id], t.database, io, t.app.bus)).toBe(0);
    expect(lines.out[0]).toBe(`Revoked API key 'assistant staging' (${id}).`);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.statusCode).toBe(401);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'details'])
      .where('resource_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'integration.api-key.create',
      'integration.api-key.revoke',
    ]);
    expect(audit[0]?.details).toMatchObject({ apiKey: 'assistant staging', via: 'cli' });
  });

  it('bad arguments print the usage and change nothing', async () => {
    const before = await t.database.db.selectFrom('api_keys').selectAll().execute();
    expect(await runApiKeyCommand(['create'], t.database, io)).toBe(2);
    expect(await runApiKeyCommand(['revoke', 'nope'], t.database, io)).toBe(2);
    expect(await runApiKeyCommand(['frobnicate'], t.database, io)).toBe(2);
    expect(
      await runApiKeyCommand(['revoke', '00000000-0000-4000-8000-000000000000'], t.database, io),
    ).toBe(1);
    expect(lines.err.join('\n')).toMatch(/Usage:/);
    expect(lines.err.at(-1)).toMatch(/No API key with the id/);
    expect(await t.database.db.selectFrom('api_keys').selectAll().execute()).toEqual(before);
  });
});
