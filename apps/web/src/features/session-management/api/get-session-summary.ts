import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionSummary } from '@loopdesk/contracts/realtime.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/sessions/_summary`: every technician session (spec 3 §2 Session management). */
export function getSessionSummary(signal?: AbortSignal): Promise<SessionSummary> {
  return callRoute('GET', '/internal/sessions/_summary', signal ? { signal } : {});
}

export function sessionSummaryQueryOptions() {
  return queryOptions({
    queryKey: ['sessions', 'summary'],
    queryFn: ({ signal }) => getSessionSummary(signal),
  });
}

/** The sessions table's rows; the screen's Refresh button refetches them. */
export function useSessionSummary() {
  return useQuery(sessionSummaryQueryOptions());
}
