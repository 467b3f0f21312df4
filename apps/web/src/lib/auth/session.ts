import type { AccessTokenResponse } from '@loopdesk/contracts/users.ts';
import { HttpError } from '../http-error.ts';
import { activeWithin, startActivityTracking, stopActivityTracking } from './activity.ts';
import { postRefresh } from './post-refresh.ts';
import { getSession, setSession } from './session-store.ts';

/** The server ends a session 30 minutes after its last refresh. */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
/** How long before the access token expires the portal refreshes it. */
export const REFRESH_LEAD_MS = 60_000;

let inFlight: Promise<void> | null = null;
/** Bumped on every local sign-out, so a refresh that was already under way cannot sign back in. */
let generation = 0;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function clearTimers(): void {
  clearTimeout(refreshTimer);
  clearTimeout(expiryTimer);
  refreshTimer = undefined;
  expiryTimer = undefined;
}

/**
 * Refresh ahead of expiry only if the user did something in the idle window; otherwise the session
 * lapses with the token, as it does on the server.
 */
function scheduleRenewal(expiresAt: number, lifetimeMs: number): void {
  clearTimers();
  const now = Date.now();
  // A short-lived token is refreshed halfway through its life, never in a tight loop.
  const lead = Math.min(REFRESH_LEAD_MS, Math.floor(lifetimeMs / 2));
  refreshTimer = setTimeout(
    () => {
      if (activeWithin(IDLE_TIMEOUT_MS)) {
        // A failure other than 401 is retried once more when the token expires.
        refreshSession().catch(() => undefined);
      }
    },
    Math.max(0, expiresAt - lead - now),
  );
  expiryTimer = setTimeout(
    () => {
      if (activeWithin(IDLE_TIMEOUT_MS)) {
        refreshSession().catch(() => signOutLocally());
      } else {
        signOutLocally();
      }
    },
    Math.max(0, expiresAt - now),
  );
}

function signIn(answer: AccessTokenResponse): void {
  const now = Date.now();
  const lifetimeMs = answer.expiresIn * 1000;
  if (getSession().status !== 'signed-in') {
    // Signing in (or reloading the page) is itself an interaction.
    startActivityTracking();
  }
  const expiresAt = now + lifetimeMs;
  setSession({
    status: 'signed-in',
    accessToken: answer.accessToken,
    expiresAt,
    refreshedAt: now,
    user: answer.user,
  });
  scheduleRenewal(expiresAt, lifetimeMs);
}

/**
 * Trades the refresh cookie for a new access token. Concurrent callers share one request. A 401
 * means there is no session: the portal signs out locally and the promise rejects with it.
 */
export function refreshSession(): Promise<void> {
  if (inFlight) {
    return inFlight;
  }
  const startedIn = generation;
  const request: Promise<void> = postRefresh()
    .then((answer) => {
      if (startedIn !== generation) {
        throw new Error('Signed out while the session was being refreshed.');
      }
      signIn(answer);
    })
    .catch((error: unknown) => {
      if (startedIn === generation && error instanceof HttpError && error.status === 401) {
        signOutLocally();
      }
      throw error;
    })
    .finally(() => {
      if (inFlight === request) {
        inFlight = null;
      }
    });
  inFlight = request;
  return request;
}

/**
 * After a 401 from an API call: refresh, unless the user has been idle for the whole idle window
 * (background polling must not keep an abandoned session alive), in which case sign out.
 */
export function renewAfterUnauthorized(): Promise<void> {
  if (getSession().status === 'signed-in' && !activeWithin(IDLE_TIMEOUT_MS)) {
    signOutLocally();
    return Promise.reject(new Error('The session ended after 30 idle minutes.'));
  }
  return refreshSession();
}

/** At start: learn whether a session exists. Any failure leaves the portal signed out. */
export async function initSession(): Promise<void> {
  if (getSession().status !== 'loading') {
    return;
  }
  try {
    await refreshSession();
  } catch {
    signOutLocally();
  }
}

/** Forgets the session in this tab only (the server side is untouched). */
export function signOutLocally(): void {
  generation += 1;
  inFlight = null;
  clearTimers();
  stopActivityTracking();
  if (getSession().status !== 'signed-out') {
    setSession({ status: 'signed-out' });
  }
}

/** Back to the unknown state of a fresh page load (tests, hot reload). */
export function resetSession(): void {
  generation += 1;
  clearTimers();
  stopActivityTracking();
  inFlight = null;
  setSession({ status: 'loading' });
}
