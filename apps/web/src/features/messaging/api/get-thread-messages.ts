import { queryOptions, useQuery } from '@tanstack/react-query';
import { MESSAGING_POLL_MS, type ThreadMessageList } from '@loopdesk/contracts/messaging.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/messaging/groups/{id}/messages`: a thread's messages, oldest first. */
export function getThreadMessages(id: string, signal?: AbortSignal): Promise<ThreadMessageList> {
  return callRoute('GET', '/internal/messaging/groups/:id/messages', {
    params: { id },
    ...(signal ? { signal } : {}),
  });
}

export function threadMessagesQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['messaging', 'threads', id, 'messages'],
    queryFn: ({ signal }) => getThreadMessages(id, signal),
    // The open thread shows the patient's replies as they come (polled like the list).
    refetchInterval: MESSAGING_POLL_MS,
  });
}

export function useThreadMessages(id: string | null) {
  return useQuery({ ...threadMessagesQueryOptions(id ?? ''), enabled: id !== null });
}
