import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ManagedUser } from '@loopdesk/contracts/users.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { userKey } from './user-key.ts';

/** `GET /internal/users/{base64 of id or email}` (spec 3 §7 Admin). */
export function getUser(idOrEmail: string, signal?: AbortSignal): Promise<ManagedUser> {
  return callRoute('GET', '/internal/users/:userId', {
    params: { userId: userKey(idOrEmail) },
    ...(signal ? { signal } : {}),
  });
}

export function userQueryOptions(idOrEmail: string) {
  return queryOptions({
    queryKey: ['users', 'one', idOrEmail],
    queryFn: ({ signal }) => getUser(idOrEmail, signal),
    // A search is asked for: a 404 is the answer, not a hiccup to retry.
    retry: false,
    enabled: idOrEmail.trim() !== '',
  });
}

/** The user searched for; nothing is fetched until a key is given. */
export function useUser(idOrEmail: string) {
  return useQuery(userQueryOptions(idOrEmail));
}
