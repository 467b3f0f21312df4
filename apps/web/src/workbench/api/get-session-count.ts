import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionCount } from '@loopdesk/contracts/realtime.ts';
import { callRoute } from '../../lib/api-client.ts';

/** Spec 1 §9 and 2 §9: the session counts are polled every 20 s. */
export const SESSION_COUNT_POLL_MS = 20_000;

/** `GET /internal/sessions/_count` → `{ federated, exception }` (spec 1 §7). */
export function getSessionCount(signal?: AbortSignal): Promise<SessionCount> {
  return callRoute('GET', '/internal/sessions/_count', {
    schema: SessionCount,
    expectStatus: 200,
    ...(signal ? { signal } : {}),
  });
}

export function sessionCountQueryOptions() {
  return queryOptions({
    queryKey: ['sessions', 'count'],
    queryFn: ({ signal }) => getSessionCount(signal),
    refetchInterval: SESSION_COUNT_POLL_MS,
    // A failure shows 'unknown' at once (spec 1 §8); the next poll tries again.
    retry: false,
  });
}

/** The connected federated and exception sessions, polled every 20 s. */
export function useSessionCount() {
  return useQuery(sessionCountQueryOptions());
}
