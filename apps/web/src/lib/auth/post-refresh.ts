import { AccessTokenResponse } from '@loopdesk/contracts/users.ts';
import { HttpError, httpErrorFrom } from '../http-error.ts';

/** What a refresh without a session comes to, as the rest of the portal reads it. */
const NOT_SIGNED_IN = 'Not signed in: sign in to continue.';

/** The longest the portal waits when the server asks it to retry a refresh. */
const MAX_RETRY_WAIT_MS = 2_000;

function refresh(): Promise<Response> {
  return fetch('/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: '{}',
  });
}

/**
 * `POST /auth/refresh`: trades the httpOnly refresh cookie for a new access token. Rejects with an
 * HttpError 401 when there is no session: the server answers 204 when the browser holds no refresh
 * cookie (so a signed-out start logs no failed request) and 401 when it refuses the cookie. A 401
 * with `Retry-After` means another tab replaced the token a moment ago: the browser holds the new
 * cookie, so the call is tried once more.
 */
export async function postRefresh(): Promise<AccessTokenResponse> {
  let response = await refresh();
  if (response.status === 204) {
    throw new HttpError(401, { error: 'Unauthorized', message: NOT_SIGNED_IN }, 'No Content');
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  if (response.status === 401 && Number.isFinite(retryAfter) && retryAfter > 0) {
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(MAX_RETRY_WAIT_MS, retryAfter * 1000)),
    );
    response = await refresh();
  }
  if (!response.ok) {
    throw await httpErrorFrom(response);
  }
  return AccessTokenResponse.parse(await response.json());
}
