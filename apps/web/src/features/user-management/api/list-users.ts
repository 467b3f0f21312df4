import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UsersListResponse } from '@loopdesk/contracts/users.ts';
import { callRoute } from '../../../lib/api-client.ts';

export interface UsersPage {
  readonly search: string;
  readonly page: number;
  readonly size: number;
}

/** `GET /internal/users`: a page of every user with roles and last sign-in (issue 15). */
export function listUsers(
  { search, page, size }: UsersPage,
  signal?: AbortSignal,
): Promise<UsersListResponse> {
  return callRoute('GET', '/internal/users', {
    query: { q: search.trim() || undefined, p: page, s: size },
    ...(signal ? { signal } : {}),
  });
}

export function usersListQueryOptions(page: UsersPage) {
  return queryOptions({
    queryKey: ['users', 'list', page],
    queryFn: ({ signal }) => listUsers(page, signal),
    // The table keeps the last page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useUsersList(page: UsersPage) {
  return useQuery(usersListQueryOptions(page));
}
