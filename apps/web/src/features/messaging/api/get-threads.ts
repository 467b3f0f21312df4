import { queryOptions, useQuery } from '@tanstack/react-query';
import { MESSAGING_POLL_MS, type ThreadList } from '@loopdesk/contracts/messaging.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/messaging/groups`: the open threads with their unread counts (spec 3 §7). */
export function getThreads(signal?: AbortSignal): Promise<ThreadList> {
  return callRoute('GET', '/internal/messaging/groups', signal ? { signal } : {});
}

export function threadsQueryOptions() {
  return queryOptions({
    queryKey: ['messaging', 'threads'],
    queryFn: ({ signal }) => getThreads(signal),
    // Patients' replies arrive through the assistant at any time: the list asks again every few
    // seconds, so new messages and unread counts show without a reload.
    refetchInterval: MESSAGING_POLL_MS,
  });
}

export function useThreads() {
  return useQuery(threadsQueryOptions());
}
