import { httpErrorFrom } from '../http-error.ts';

/** `POST /auth/logout`: revokes the session and clears the refresh cookie (204). */
export async function postLogout(): Promise<void> {
  const response = await fetch('/auth/logout', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) {
    throw await httpErrorFrom(response);
  }
}
