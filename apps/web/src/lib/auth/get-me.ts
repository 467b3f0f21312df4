import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '@loopdesk/contracts/users.ts';
import { callRoute } from '../api-client.ts';

/** How often the portal reads the signed-in user's roles again. */
export const ME_REFRESH_MS = 15_000;

/** `GET /internal/users/me`: the signed-in user with their roles. */
export function getMe(signal?: AbortSignal): Promise<Me> {
  return callRoute('GET', '/internal/users/me', signal ? { signal } : {});
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'me'],
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 60_000,
    // An admin may change the roles at any time (user management): read them again every 15 s,
    // so the drawer follows (and a stale access token is refused and refreshed) within seconds.
    refetchInterval: ME_REFRESH_MS,
  });
}

/** The signed-in user as the server last answered; `enabled` only once a session exists. */
export function useMe(enabled: boolean) {
  return useQuery({ ...meQueryOptions(), enabled });
}
