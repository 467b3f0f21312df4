import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_IN_MESSAGE } from '@loopdesk/contracts/users.ts';
import {
  accessTokenFor,
  CookieJar,
  follow,
  refresh,
  signIn,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';

describe('sign-in through the development provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ listen: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs Ann in with one click and tells the portal through the popup page', async () => {
    const { page, status, jar } = await signIn(t.baseUrl, 'annotator@loopdesk.test');
    expect(status).toBe(200);
    expect(page).toContain(SIGNED_IN_MESSAGE);
    expect(jar.cookies.has('loopdesk_refresh')).toBe(true);

    const response = await refresh(t.baseUrl, jar);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      accessToken: string;
      expiresIn: number;
      user: { email: string; permissions: { roles: string[] } };
    };
    expect(body.expiresIn).toBe(300);
    expect(body.user.email).toBe('annotator@loopdesk.test');
    expect(body.user.permissions.roles).toEqual(['annotator']);

    const me = await fetch(`${t.baseUrl}/internal/users/me`, {
      headers: { authorization: `Bearer ${body.accessToken}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      email: 'annotator@loopdesk.test',
      displayName: 'Ann Annotator',
      permissions: { roles: ['annotator'] },
    });
  });

  it('the sign-in page lists every demo account as a button labelled with its email', async () => {
    const jar = new CookieJar();
    const { response } = await follow(jar, `${t.baseUrl}/auth/login`);
    const html = await response.text();
    for (const email of [
      'admin@loopdesk.test',
      'medical@loopdesk.test',
      'annotator@loopdesk.test',
      'approver@loopdesk.test',
      'experimental@loopdesk.test',
      'lead@loopdesk.test',
    ]) {
      expect(html).toContain(`value="${email}">${email}`);
    }
  });

  it('rotates the refresh cookie, and a reused refresh token ends the session', async () => {
    const { jar } = await signIn(t.baseUrl, 'medical@loopdesk.test');
    const first = jar.cookies.get('loopdesk_refresh');
    expect((await refresh(t.baseUrl, jar)).status).toBe(200);
    const second = jar.cookies.get('loopdesk_refresh');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    // Someone replays the first token long after it was used: simulate by ageing its use.
    await t.database.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date(Date.now() - 60_000) })
      .where('used_at', 'is not', null)
      .execute();
    const thief = new CookieJar();
    thief.cookies.set('loopdesk_refresh', first ?? '');
    const replay = await refresh(t.baseUrl, thief);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({
      error: 'Unauthorized',
      message: expect.stringMatching(/already used/),
    });

    // The legitimate holder is signed out too: the whole session was revoked.
    const after = await refresh(t.baseUrl, jar);
    expect(after.status).toBe(401);
  });

  it('a refresh token presented again at once (a second tab) gets 401 but leaves the session alive', async () => {
    const { jar } = await signIn(t.baseUrl, 'approver@loopdesk.test');
    const first = jar.cookies.get('loopdesk_refresh') ?? '';
    expect((await refresh(t.baseUrl, jar)).status).toBe(200);

    // The other tab sends the token the first tab just traded in.
    const otherTab = new CookieJar();
    otherTab.cookies.set('loopdesk_refresh', first);
    const raced = await refresh(t.baseUrl, otherTab);
    expect(raced.status).toBe(401);
    expect(raced.headers.get('retry-after')).toBe('1');
    expect(await raced.json()).toEqual({
      error: 'Unauthorized',
      message:
        'This refresh token was replaced a moment ago by another request of this browser: try again.',
    });
    // No access token came with it, and the browser's new cookie is not cleared.
    expect(raced.headers.getSetCookie()).toEqual([]);
    // The token the browser holds now still works: the session was not ended.
    expect((await refresh(t.baseUrl, jar)).status).toBe(200);
  });

  it('logout revokes the session: the refresh cookie and the access token stop working', async () => {
    const { token, jar } = await accessTokenFor(t.baseUrl, 'approver@loopdesk.test');
    const logout = await jar.fetch(`${t.baseUrl}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(logout.status).toBe(204);
    const me = await fetch(`${t.baseUrl}/internal/users/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(401);
    const jarAgain = new CookieJar();
    jarAgain.cookies.set('loopdesk_refresh', 'whatever');
    expect((await refresh(t.baseUrl, jarAgain)).status).toBe(401);
  });

  it('a refresh without a session cookie answers 204 and no token: nobody is signed in, nothing failed', async () => {
    const response = await refresh(t.baseUrl, new CookieJar());
    expect(response.status).toBe(204);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('');
  });

  it('refresh and logout take only JSON: a form or text/plain post (what another site can send) changes nothing', async () => {
    const { jar } = await signIn(t.baseUrl, 'approver@loopdesk.test');
    const cookie = jar.cookies.get('loopdesk_refresh');
    for (const [path, type, body] of [
      ['/auth/refresh', 'text/plain', '{}'],
      ['/auth/logout', 'application/x-www-form-urlencoded', 'a=b'],
      ['/auth/logout', undefined, undefined],
    ] as const) {
      const response = await jar.fetch(`${t.baseUrl}${path}`, {
        method: 'POST',
        ...(type ? { headers: { 'content-type': type }, body } : {}),
      });
      expect(response.status, `${path} ${type ?? 'without a body'}`).toBe(400);
      expect(await response.json()).toEqual({
        error: 'Bad Request',
        message: `Send POST ${path} with Content-Type: application/json and a JSON body such as {}.`,
        details: [{ path: 'headers.content-type', message: 'must be application/json' }],
      });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    // The session was neither rotated nor ended: the same cookie still buys an access token.
    expect(jar.cookies.get('loopdesk_refresh')).toBe(cookie);
    expect((await refresh(t.baseUrl, jar)).status).toBe(200);
  });

  it('a session idle for longer than 30 minutes cannot be refreshed', async () => {
    const { jar } = await signIn(t.baseUrl, 'experimental@loopdesk.test');
    await t.database.db
      .updateTable('auth_sessions')
      .set({ last_refreshed_at: new Date(Date.now() - 31 * 60_000) })
      .where('revoked_at', 'is', null)
      .execute();
    const response = await refresh(t.baseUrl, jar);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      message: expect.stringMatching(/without activity/),
    });
  });

  it('a session older than 12 hours cannot be refreshed', async () => {
    const { jar } = await signIn(t.baseUrl, 'lead@loopdesk.test');
    await t.database.db
      .updateTable('auth_sessions')
      .set({ absolute_expires_at: new Date(Date.now() - 1000) })
      .where('revoked_at', 'is', null)
      .execute();
    const response = await refresh(t.baseUrl, jar);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: expect.stringMatching(/time limit/) });
  });

  it('a callback with a wrong state is refused with 401 and no session', async () => {
    const jar = new CookieJar();
    const start = await jar.fetch(`${t.baseUrl}/auth/login`);
    expect(start.status).toBe(302);
    const callback = await jar.fetch(`${t.baseUrl}/auth/callback?code=abc&state=forged`);
    expect(callback.status).toBe(401);
    expect(await callback.text()).toContain('wrong state');
    expect(jar.cookies.has('loopdesk_refresh')).toBe(false);
  });

  it("an ID token whose nonce is not this sign-in's is refused with 401 and no session", async () => {
    const jar = new CookieJar();
    const start = await jar.fetch(`${t.baseUrl}/auth/login`);
    expect(start.status).toBe(302);
    // The provider will sign this sign-in's nonce; the server now expects another one.
    await t.database.db.updateTable('auth_transactions').set({ nonce: 'another-nonce' }).execute();
    const { response } = await follow(
      jar,
      new URL(start.headers.get('location') ?? '', t.baseUrl).href,
    );
    const action = /<form method="post" action="([^"]+)"/.exec(await response.text())?.[1] ?? '';
    const sessionsBefore = await t.database.db.selectFrom('auth_sessions').select('id').execute();
    const done = await follow(jar, new URL(action, t.baseUrl).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account: 'approver@loopdesk.test' }).toString(),
    });
    expect(done.response.status).toBe(401);
    expect(await done.response.text()).toMatch(/could not be verified \(.*nonce.*\)/);
    expect(jar.cookies.has('loopdesk_refresh')).toBe(false);
    const sessionsAfter = await t.database.db.selectFrom('auth_sessions').select('id').execute();
    expect(sessionsAfter).toHaveLength(sessionsBefore.length);
  });

  it('a callback without a sign-in started in this browser is refused', async () => {
    const response = await fetch(`${t.baseUrl}/auth/callback?code=abc&state=xyz`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('not started from this browser');
  });

  it('records sign-in, sign-out and refused requests in the audit trail', async () => {
    const { jar } = await accessTokenFor(t.baseUrl, 'admin@loopdesk.test');
    await jar.fetch(`${t.baseUrl}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await fetch(`${t.baseUrl}/internal/users/me`);
    const rows = await t.database.db.selectFrom('audit_events').selectAll().orderBy('id').execute();
    const actions = rows.map((r) => `${r.action}:${r.outcome}:${r.actor_email ?? ''}`);
    expect(actions).toContain('auth.sign-in:success:admin@loopdesk.test');
    expect(actions.some((a) => a.startsWith('auth.sign-out:success'))).toBe(true);
    const refused = rows.filter((r) => r.action === 'request.refused');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.at(-1)).toMatchObject({ status_code: 401, outcome: 'denied' });
    expect(refused.at(-1)?.ip).toBeTruthy();
  });
});
