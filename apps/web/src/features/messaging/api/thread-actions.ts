import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ArchivedThread,
  StartedThread,
  Thread,
  ThreadMessage,
} from '@loopdesk/contracts/messaging.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `POST /internal/messaging/groups/_upsert`: a thread for the customer with this email. */
export function startThread(email: string, content: string): Promise<StartedThread> {
  return callRoute('POST', '/internal/messaging/groups/_upsert', {
    body: { content, customer: { system: 'email', code: 'id', value: email } },
  });
}

/**
 * `POST /internal/messaging/groups/{id}/messages`: the new message's id is read from the Location
 * header (spec 3 §7), its last path segment.
 */
export async function sendMessage(
  threadId: string,
  customerId: string,
  content: string,
): Promise<{ id: string; message: ThreadMessage }> {
  let location: string | null = null;
  const message = await callRoute('POST', '/internal/messaging/groups/:id/messages', {
    params: { id: threadId },
    body: { content, customer: { system: 'decoded', code: 'id', value: customerId } },
    onResponse: (response) => {
      location = response.headers.get('location');
    },
  });
  const id = (location as string | null)?.split('/').at(-1) ?? message.id;
  return { id, message };
}

/** `PATCH …/messages/_mark_as_read`. */
export function markThreadRead(threadId: string): Promise<Thread> {
  return callRoute('PATCH', '/internal/messaging/groups/:id/messages/_mark_as_read', {
    params: { id: threadId },
    body: {},
  });
}

/** `DELETE /internal/messaging/groups/{id}`: archive. */
export function archiveThread(threadId: string): Promise<ArchivedThread> {
  return callRoute('DELETE', '/internal/messaging/groups/:id', {
    params: { id: threadId },
    body: {},
  });
}

/** The thread actions; each reloads the list (and the thread) when it settles. */
export function useThreadActions() {
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: ['messaging', 'threads'] });
  return {
    start: useMutation({
      mutationFn: ({ email, content }: { email: string; content: string }) =>
        startThread(email, content),
      onSettled: reload,
    }),
    send: useMutation({
      mutationFn: (input: { threadId: string; customerId: string; content: string }) =>
        sendMessage(input.threadId, input.customerId, input.content),
      onSettled: reload,
    }),
    markRead: useMutation({ mutationFn: markThreadRead, onSettled: reload }),
    archive: useMutation({ mutationFn: archiveThread, onSettled: reload }),
  };
}
