import { describe, expect, it } from 'vitest';
import {
  callsOf,
  errorAnswer,
  installFakeServer,
  json,
  makeUser,
  tokenAnswer,
} from '../test/fake-server.ts';
import { apiRequest, callRoute } from './api-client.ts';
import { getSession } from './auth/session-store.ts';
import { refreshSession } from './auth/session.ts';
import { HttpError, errorMessage } from './http-error.ts';

const ann = makeUser(['annotator']);

describe('API client', () => {
  it('sends the bearer token and the tenant header', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => json(200, tokenAnswer(ann)),
      'GET /internal/quinn/intents/greeting/_context_menu': ({ headers }) =>
        json(200, {
          authorization: headers.get('Authorization'),
          tenant: headers.get('X-Tenant-ID'),
        }),
    });
    await refreshSession();
    const answer = await callRoute('GET', '/internal/quinn/intents/:intent/_context_menu', {
      params: { intent: 'greeting' },
      tenantId: 'acme-eu',
      // The fake echoes the headers instead of a context menu: read its answer as it is.
      schema: { parse: (data: unknown) => data },
    });
    expect(answer).toEqual({ authorization: 'Bearer token-user-ann', tenant: 'acme-eu' });
    expect(callsOf(fetchMock)).toEqual([
      'POST /auth/refresh',
      'GET /internal/quinn/intents/greeting/_context_menu',
    ]);
  });

  it('validates answers with the route schema', async () => {
    installFakeServer({ 'GET /internal/users/me': () => json(200, { id: 'x' }) });
    await expect(callRoute('GET', '/internal/users/me')).rejects.toThrow();
  });

  it('refreshes once on a 401 and retries the call', async () => {
    let tokens = 0;
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => {
        tokens += 1;
        return json(200, { ...tokenAnswer(ann), accessToken: `token-${tokens}` });
      },
      'GET /internal/users/me': ({ headers }) =>
        headers.get('Authorization') === 'Bearer token-2'
          ? json(200, ann)
          : errorAnswer(401, 'Unauthorized', 'Token expired.'),
    });
    await refreshSession();
    await expect(callRoute('GET', '/internal/users/me')).resolves.toEqual(ann);
    expect(callsOf(fetchMock)).toEqual([
      'POST /auth/refresh',
      'GET /internal/users/me',
      'POST /auth/refresh',
      'GET /internal/users/me',
    ]);
  });

  it('signs out locally when the refresh after a 401 fails', async () => {
    let sessionAlive = true;
    installFakeServer({
      'POST /auth/refresh': () =>
        sessionAlive
          ? json(200, tokenAnswer(ann))
          : errorAnswer(401, 'Unauthorized', 'Session ended.'),
      'GET /internal/users/me': () => errorAnswer(401, 'Unauthorized', 'Token expired.'),
    });
    await refreshSession();
    sessionAlive = false;
    await expect(callRoute('GET', '/internal/users/me')).rejects.toThrow(
      'Unauthorized - Token expired.',
    );
    expect(getSession().status).toBe('signed-out');
  });

  it("words errors '{error} - {message}', or falls back to the error's own message", async () => {
    installFakeServer({
      'GET /internal/sysadmin/redis/_stats': () =>
        errorAnswer(403, 'Forbidden', 'Missing system:redis:all.'),
      'GET /internal/analytics/dashboard': () =>
        new Response('<html>bad gateway</html>', { status: 502 }),
    });
    const forbidden = await callRoute('GET', '/internal/sysadmin/redis/_stats').catch(
      (e: unknown) => e,
    );
    expect(forbidden).toBeInstanceOf(HttpError);
    expect(errorMessage(forbidden)).toBe('Forbidden - Missing system:redis:all.');

    const gateway = await callRoute('GET', '/internal/analytics/dashboard').catch(
      (e: unknown) => e,
    );
    expect(errorMessage(gateway)).toBe('Request failed with status 502');
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('adds query parameters and reads an empty 204 answer', async () => {
    const fetchMock = installFakeServer({
      'POST /internal/quinn/conversations/c1/_memory': () => new Response(null, { status: 204 }),
    });
    await expect(
      apiRequest('/internal/quinn/conversations/c1/_memory', {
        method: 'POST',
        query: { a: 1, b: undefined },
      }),
    ).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/internal/quinn/conversations/c1/_memory?a=1');
  });
});
