import { get } from 'node:http';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PROVIDER_PATH } from '../modules/sign-in/dev-provider.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { tokenForRoles } from '../test/tokens.ts';

/**
 * Standards checked against a running server: Bearer challenges (RFC 6750 §3, RFC 9110
 * §15.5.2), one origin in the development issuer's discovery document (OpenID Connect
 * Discovery §4.3, with openid-client's own discovery), and HSTS behind TLS only (RFC 6797).
 */

describe('Bearer challenges on 401 and on a missing privilege', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('/api/v1: no credentials → a bare challenge; a malformed header → invalid_request; a bad key → invalid_token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/events' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="loopdesk"');

    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.headers['www-authenticate']).toBe(
      'Bearer realm="loopdesk", error="invalid_request"',
    );

    for (const token of ['ldk_nope_nope', 'ldk_abcdefgh_0123456789abcdef0123456789abcdef', 'jwt']) {
      const wrong = await t.app.inject({
        method: 'GET',
        url: '/api/v1/events',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(wrong.statusCode, token).toBe(401);
      expect(wrong.headers['www-authenticate'], token).toBe(
        'Bearer realm="loopdesk", error="invalid_token"',
      );
      // The body still says what to fix, in the one error shape.
      expect(wrong.json()).toMatchObject({ error: 'Unauthorized', message: expect.any(String) });
    }
  });

  it('/internal: an invalid access token → invalid_token; a missing privilege → 403 insufficient_scope naming it', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/internal/users/me' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="loopdesk"');

    const forged = await t.app.inject({
      method: 'GET',
      url: '/internal/users/me',
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.headers['www-authenticate']).toBe(
      'Bearer realm="loopdesk", error="invalid_token"',
    );

    const { token: annotator } = await tokenForRoles(t, 'ann@loopdesk.test', ['annotator']);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/internal/users/someone@loopdesk.test',
      headers: { authorization: `Bearer ${annotator}` },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toMatch(
      /^Bearer realm="loopdesk", error="insufficient_scope", scope="users:permissions:update"$/,
    );
    // A 403 that is not about a privilege (or a 404) carries no challenge.
    const { token: admin } = await tokenForRoles(t, 'ada@loopdesk.test', ['admin']);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/internal/nothing',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['www-authenticate']).toBeUndefined();
  });
});

/**
 * The discovery document of the development issuer, asked on `host` (node:http, since fetch
 * does not let a caller set the Host header).
 */
async function discoveryAskedOn(t: TestApp, host: string): Promise<Record<string, unknown>> {
  const port = Number(new URL(t.baseUrl).port);
  const body = await new Promise<string>((resolve, reject) => {
    const request = get(
      {
        host: '127.0.0.1',
        port,
        path: `${DEV_PROVIDER_PATH}/.well-known/openid-configuration`,
        headers: { host: `${host}:${port}` },
      },
      (response) => {
        expect(response.statusCode).toBe(200);
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve(text));
      },
    );
    request.on('error', reject);
  });
  return JSON.parse(body) as Record<string, unknown>;
}

/** The origins of the issuer and of every endpoint a discovery document names. */
function originsOf(document: Record<string, unknown>): Set<string> {
  const urls = Object.entries(document)
    .filter(
      ([key, value]) =>
        (key === 'issuer' || key.endsWith('_endpoint') || key === 'jwks_uri') &&
        typeof value === 'string',
    )
    .map(([, value]) => new URL(value as string).origin);
  expect(urls.length).toBeGreaterThan(3);
  return new Set(urls);
}

describe.each(['localhost', '127.0.0.1'])(
  'the development issuer with PUBLIC_URL on %s',
  (publicHost) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ listen: true, publicHost });
    });
    afterAll(async () => {
      await t.close();
    });

    it('gives PUBLIC_URL as the one origin of the issuer and every endpoint, whatever host it is asked on', async () => {
      const port = new URL(t.baseUrl).port;
      const expected = `http://${publicHost}:${port}`;
      for (const host of ['localhost', '127.0.0.1']) {
        const document = await discoveryAskedOn(t, host);
        expect([...originsOf(document)], `asked on ${host}`).toEqual([expected]);
      }
    });

    it("passes openid-client's own discovery at the issuer PUBLIC_URL names", async () => {
      const port = new URL(t.baseUrl).port;
      const issuer = new URL(`http://${publicHost}:${port}${DEV_PROVIDER_PATH}`);
      const configuration = await oidc.discovery(issuer, 'loopdesk-portal', undefined, undefined, {
        execute: [oidc.allowInsecureRequests],
      });
      const metadata = configuration.serverMetadata();
      expect(metadata.issuer).toBe(issuer.href);
      expect(new URL(metadata.authorization_endpoint ?? '').origin).toBe(issuer.origin);
      expect(new URL(metadata.token_endpoint ?? '').origin).toBe(issuer.origin);
    });
  },
);

describe('Strict-Transport-Security', () => {
  it('is sent when PUBLIC_URL is https (behind TLS) and absent on plain http', async () => {
    const tls = await startTestApp({ env: { PUBLIC_URL: 'https://loopdesk.example.org' } });
    try {
      const response = await tls.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    } finally {
      await tls.close();
    }
    const plain = await startTestApp();
    try {
      const response = await plain.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
