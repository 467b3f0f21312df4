import { afterEach, describe, expect, it } from 'vitest';
import { SIGN_IN_FAILED_MESSAGE } from '@loopdesk/contracts/users.ts';
import { refresh, signIn, startTestApp, type TestApp } from '../../test/harness.ts';

describe('sign-in policy', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('an account outside OIDC_ALLOWED_DOMAINS is refused with a clear message and no session', async () => {
    t = await startTestApp({
      listen: true,
      env: { OIDC_ALLOWED_DOMAINS: 'example.com, clinic.example' },
    });
    const { status, page, jar } = await signIn(t.baseUrl, 'medical@loopdesk.test');
    expect(status).toBe(401);
    expect(page).toContain(SIGN_IN_FAILED_MESSAGE);
    expect(page).toContain(
      'Sign-in refused: medical@loopdesk.test is not in an allowed domain (example.com, clinic.example). Use your company account.',
    );
    expect(jar.cookies.has('loopdesk_refresh')).toBe(false);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'auth.sign-in')
      .execute();
    expect(audit.map((a) => [a.outcome, a.actor_email])).toEqual([
      ['denied', 'medical@loopdesk.test'],
    ]);
  });

  it('ADMIN_EMAILS grants admin to an account created at its first sign-in', async () => {
    // The development sign-in creates its accounts ahead with their roles (whatever DEMO says):
    // remove two of them, so that signing in creates the user as a first sign-in does.
    t = await startTestApp({
      listen: true,
      env: { DEMO: '0', ADMIN_EMAILS: 'Annotator@Loopdesk.test' },
    });
    await t.database.db
      .deleteFrom('users')
      .where('email', 'in', ['annotator@loopdesk.test', 'approver@loopdesk.test'])
      .execute();
    const { jar } = await signIn(t.baseUrl, 'annotator@loopdesk.test');
    const response = await refresh(t.baseUrl, jar);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { permissions: { roles: string[] } } };
    expect(body.user.permissions.roles).toEqual(['admin']);
    // Someone else gets no role at all until an admin grants one.
    const other = await signIn(t.baseUrl, 'approver@loopdesk.test');
    const otherBody = (await (await refresh(t.baseUrl, other.jar)).json()) as {
      user: { permissions: { roles: string[] } };
    };
    expect(otherBody.user.permissions.roles).toEqual([]);
  });

  it('too many sign-in attempts from one address get 429 in the one error shape', async () => {
    t = await startTestApp({ env: { SIGN_IN_RATE_LIMIT: '2' } });
    const statuses: number[] = [];
    let last = { statusCode: 0, body: '' };
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      statuses.push(response.statusCode);
      last = { statusCode: response.statusCode, body: response.body };
    }
    expect(statuses).toEqual([204, 204, 429]);
    expect(JSON.parse(last.body)).toMatchObject({
      error: 'Too Many Requests',
      message: expect.stringMatching(/^Too many requests: wait \d+ seconds and try again\.$/),
    });
  });

  it('the limit counts per address and per step: sign-in start and callback at SIGN_IN_RATE_LIMIT, refresh at four times it', async () => {
    t = await startTestApp({ env: { SIGN_IN_RATE_LIMIT: '2' } });
    const app = t.app;
    const statuses = async (
      times: number,
      request: { method: 'GET' | 'POST'; url: string; remoteAddress: string },
    ): Promise<number[]> => {
      const seen: number[] = [];
      for (let i = 0; i < times; i++) {
        const response = await app.inject({
          ...request,
          ...(request.method === 'POST'
            ? { headers: { 'content-type': 'application/json' }, payload: '{}' }
            : {}),
        });
        seen.push(response.statusCode);
      }
      return seen;
    };
    const ok = (status: number) => status !== 429;
    // Someone at 10.0.0.1 starts a sign-in three times in a minute: the third is refused.
    const login = await statuses(3, {
      method: 'GET',
      url: '/auth/login',
      remoteAddress: '10.0.0.1',
    });
    expect(login.slice(0, 2).every(ok)).toBe(true);
    expect(login[2]).toBe(429);
    // A colleague at another address is not held back by it.
    const colleague = await statuses(1, {
      method: 'GET',
      url: '/auth/login',
      remoteAddress: '10.0.0.2',
    });
    expect(colleague.every(ok)).toBe(true);
    // Callbacks (a provider's answers, or someone guessing codes) are limited the same way.
    const callback = await statuses(3, {
      method: 'GET',
      url: '/auth/callback?code=guess&state=guess',
      remoteAddress: '10.0.0.3',
    });
    expect(callback.slice(0, 2).every(ok)).toBe(true);
    expect(callback[2]).toBe(429);
    // Refresh, which every open tab calls, gets four times the limit: 8 pass, the 9th is refused.
    const refreshes = await statuses(9, {
      method: 'POST',
      url: '/auth/refresh',
      remoteAddress: '10.0.0.4',
    });
    expect(refreshes.slice(0, 8)).toEqual(Array.from({ length: 8 }, () => 204));
    expect(refreshes[8]).toBe(429);
  });
});
