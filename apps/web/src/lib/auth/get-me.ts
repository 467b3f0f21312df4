import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Me } from '@loopdesk/contracts/users.ts';
import { callRoute } from '../api-client.ts';

/** `GET /internal/users/me`: the signed-in user with their roles. */
export function getMe(signal?: AbortSignal): Promise<Me> {
  return callRoute('GET', '/internal/users/me', signal ? { signal } : {});
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: ['users', 'me'],
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 60_000,
  });
}

/** The signed-in user as the server last answered; `enabled` only once a session exists. */
export function useMe(enabled: boolean) {
  return useQuery({ ...meQueryOptions(), enabled });
}
