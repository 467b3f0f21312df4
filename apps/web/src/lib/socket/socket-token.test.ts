import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsOf, installFakeServer, json, makeUser, tokenAnswer } from '../../test/fake-server.ts';
import { startActivityTracking } from '../auth/activity.ts';
import { setSession } from '../auth/session-store.ts';
import { REFUSED_RENEW_INTERVAL_MS, socketToken } from './socket-token.ts';

const ann = makeUser(['annotator']);

function signedIn(overrides: { expiresInMs?: number; refreshedAgoMs?: number } = {}) {
  const now = Date.now();
  setSession({
    status: 'signed-in',
    accessToken: 'token-old',
    expiresAt: now + (overrides.expiresInMs ?? 15 * 60_000),
    refreshedAt: now - (overrides.refreshedAgoMs ?? 0),
    user: ann,
  });
}

describe('socket token', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    startActivityTracking();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is null when signed out, so the socket stops', async () => {
    setSession({ status: 'signed-out' });
    expect(await socketToken('reconnect')).toBeNull();
  });

  it('is the current token while it has life left', async () => {
    const fetchMock = installFakeServer({});
    signedIn();
    expect(await socketToken('connect')).toBe('token-old');
    expect(await socketToken('refused')).toBe('token-old');
    expect(callsOf(fetchMock)).toEqual([]);
  });

  it('is renewed first when it is about to expire, or refused a minute after the last renewal', async () => {
    const fetchMock = installFakeServer({
      'POST /auth/refresh': () => json(200, { ...tokenAnswer(ann), accessToken: 'token-new' }),
    });
    signedIn({ expiresInMs: 10_000 });
    expect(await socketToken('reconnect')).toBe('token-new');

    signedIn({ refreshedAgoMs: REFUSED_RENEW_INTERVAL_MS });
    expect(await socketToken('refused')).toBe('token-new');
    expect(callsOf(fetchMock)).toEqual(['POST /auth/refresh', 'POST /auth/refresh']);
  });

  it('keeps the current token when the server cannot be reached', async () => {
    installFakeServer({
      'POST /auth/refresh': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    signedIn({ refreshedAgoMs: REFUSED_RENEW_INTERVAL_MS });
    expect(await socketToken('refused')).toBe('token-old');
  });
});
