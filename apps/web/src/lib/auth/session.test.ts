import { fireEvent } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsOf,
  errorAnswer,
  installFakeServer,
  json,
  makeUser,
  tokenAnswer,
} from '../../test/fake-server.ts';
import { callRoute } from '../api-client.ts';
import { getSession } from './session-store.ts';
import { initSession, refreshSession, resetSession } from './session.ts';

const ann = makeUser(['annotator']);
const MINUTE = 60_000;

describe('session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts signed in when the refresh cookie is still valid', async () => {
    installFakeServer({ 'POST /auth/refresh': () => json(200, tokenAnswer(ann)) });
    await initSession();
    expect(getSession()).toMatchObject({
      status: 'signed-in',
      accessToken: 'token-user-ann',
      user: ann,
    });
  });

  it('starts signed out without a session, and also when the server cannot be reached', async () => {
    installFakeServer({
      'POST /auth/refresh': () => errorAnswer(401, 'Unauthorized', 'No session.'),
    });
    await initSession();
    expect(getSession().status).toBe('signed-out');

    resetSession();
    installFakeServer({
      'POST /auth/refresh': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await initSession();
    expect(getSession().status).toBe('signed-out');
  });

  it('starts signed out when the server answers 204: the browser holds no session cookie', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => new Response(null, { status: 204 }),
    });
    await initSession();
    expect(getSession().status).toBe('signed-out');
    expect(callsOf(fetchMock)).toEqual(['POST /auth/refresh']);
    // A later refresh (a 401 from an API call) rejects as a 401, as before.
    await expect(refreshSession()).rejects.toMatchObject({ status: 401 });
  });

  it('tries once more when another tab replaced the refresh token a moment ago', async () => {
    let calls = 0;
    installFakeServer({
      'POST /auth/refresh': () => {
        calls += 1;
        return calls === 1
          ? new Response(
              JSON.stringify({ error: 'Unauthorized', message: 'replaced a moment ago' }),
              { status: 401, headers: { 'Content-Type': 'application/json', 'Retry-After': '1' } },
            )
          : json(200, tokenAnswer(ann));
      },
    });
    const started = initSession();
    await vi.advanceTimersByTimeAsync(1_000);
    await started;
    expect(calls).toBe(2);
    expect(getSession()).toMatchObject({ status: 'signed-in', user: ann });
  });

  it('shares one refresh between concurrent callers', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => json(200, tokenAnswer(ann)),
    });
    await Promise.all([refreshSession(), refreshSession(), refreshSession()]);
    expect(callsOf(fetchMock)).toEqual(['POST /auth/refresh']);
  });

  it('refreshes a minute before expiry while the user is active', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => json(200, tokenAnswer(ann, 15 * 60)),
    });
    await initSession();

    // Ann keeps working: a key press ten minutes in.
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    fireEvent.keyDown(window, { key: 'a' });
    await vi.advanceTimersByTimeAsync(4 * MINUTE - 1);
    expect(callsOf(fetchMock)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(callsOf(fetchMock)).toEqual(['POST /auth/refresh', 'POST /auth/refresh']);
    expect(getSession().status).toBe('signed-in');
  });

  it('lets the session lapse at expiry after 30 idle minutes', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => json(200, tokenAnswer(ann, 15 * 60)),
    });
    await initSession();

    // Ann is active at first: the token is renewed twice, at 14 and 28 minutes.
    fireEvent.pointerDown(window);
    await vi.advanceTimersByTimeAsync(28 * MINUTE);
    expect(callsOf(fetchMock)).toHaveLength(3);

    // Then she leaves. At 42 minutes her last interaction is 42 minutes old: no refresh, and at
    // 43 minutes, when the token expires, she is signed out.
    await vi.advanceTimersByTimeAsync(14 * MINUTE + 1);
    expect(callsOf(fetchMock)).toHaveLength(3);
    expect(getSession().status).toBe('signed-in');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(getSession().status).toBe('signed-out');
    expect(callsOf(fetchMock)).toHaveLength(3);
  });

  it('does not let a 401 from background polling revive an idle session', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => json(200, tokenAnswer(ann, 60 * 60)),
      'GET /internal/queues/federated/_size': () =>
        errorAnswer(401, 'Unauthorized', 'Token expired.'),
    });
    await initSession();
    vi.advanceTimersByTime(31 * MINUTE);
    await expect(callRoute('GET', '/internal/queues/federated/_size')).rejects.toThrow();
    expect(getSession().status).toBe('signed-out');
    expect(callsOf(fetchMock)).toEqual([
      'POST /auth/refresh',
      'GET /internal/queues/federated/_size',
    ]);
  });
});
