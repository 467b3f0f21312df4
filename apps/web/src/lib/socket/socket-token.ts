import { getAccessToken, getSession } from '../auth/session-store.ts';
import { renewAfterUnauthorized } from '../auth/session.ts';
import type { TokenRequest } from './technician-socket.ts';

/** A token with less life than this left is renewed before a socket uses it. */
export const SOCKET_TOKEN_MIN_LIFE_MS = 30_000;
/**
 * A refused connection renews the token (it may have been revoked), but at most once per this
 * interval: the socket retries every 500 ms, and a refusal for another reason (server down, no
 * privilege) must not turn into a refresh every 500 ms.
 */
export const REFUSED_RENEW_INTERVAL_MS = 60_000;

/**
 * The access token for a technician socket attempt, renewed first when it is about to expire or
 * when the server refused the last attempt. Null once signed out: the socket stops.
 */
export async function socketToken(why: TokenRequest): Promise<string | null> {
  const session = getSession();
  if (session.status !== 'signed-in') {
    return null;
  }
  const now = Date.now();
  const expiring = session.expiresAt - now < SOCKET_TOKEN_MIN_LIFE_MS;
  const refusedSinceRenewal =
    why === 'refused' && now - session.refreshedAt >= REFUSED_RENEW_INTERVAL_MS;
  if (expiring || refusedSinceRenewal) {
    try {
      // Same rule as an API 401: refresh, unless the user has been idle for the idle timeout.
      await renewAfterUnauthorized();
    } catch {
      // Unreachable server: try the current token again. A 401 or the idle limit signed out.
    }
  }
  return getAccessToken() ?? null;
}
