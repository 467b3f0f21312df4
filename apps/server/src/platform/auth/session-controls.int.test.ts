import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsersRepository } from '../../modules/users/repository.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { createSessionStore } from './sessions.ts';

/** A session of a new user, created as sign-in does; returns its first refresh token. */
async function refreshTokenFor(t: TestApp, email: string): Promise<string> {
  const user = await createUsersRepository(t.database.db).upsertOnSignIn({
    email,
    displayName: null,
    photoUrl: null,
    initialRoles: ['annotator'],
  });
  const store = createSessionStore(t.database.db, {
    idleMs: 3_600_000,
    absoluteMs: 3_600_000,
    reuseGraceMs: 0,
  });
  return (await store.create({ userId: user.id, ip: null, userAgent: null })).refreshToken;
}

/** The refresh cookie set by a refresh with this token. */
async function refreshCookie(t: TestApp, token: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/auth/refresh',
    headers: { 'content-type': 'application/json', cookie: `loopdesk_refresh=${token}` },
    payload: '{}',
  });
  expect(response.statusCode).toBe(200);
  const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
  const refresh = cookies.find((cookie) => cookie.startsWith('loopdesk_refresh='));
  expect(refresh).toBeDefined();
  return refresh ?? '';
}

describe('session controls over plain http (development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('the refresh cookie is HttpOnly, SameSite=Strict, scoped to /auth, and not Secure on http', async () => {
    const cookie = await refreshCookie(t, await refreshTokenFor(t, 'plain@controls.test'));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/auth/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it('CSP allows no inline or eval script, and only this origin may frame its pages', async () => {
    for (const url of ['/healthz', '/internal/users/me', '/']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scripts.trim()).toBe("'self'");
      expect(csp).toContain("script-src-attr 'none'");
      // The portal frames its own analytics page: same origin, and nobody else.
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it("the sign-in popup's page runs only its own nonce'd script and may not be framed", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/auth/login' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(/script-src ([^;]*)/.exec(csp)?.[1]).toMatch(/^'nonce-[^']+'$/);
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

describe('session controls behind TLS (PUBLIC_URL https)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://loopdesk.example.test' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('the refresh cookie is also Secure, and HSTS is sent', async () => {
    const cookie = await refreshCookie(t, await refreshTokenFor(t, 'tls@controls.test'));
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['strict-transport-security']).toContain('max-age=');
  });
});
