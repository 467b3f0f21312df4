import { QueuedConversations } from '@loopdesk/contracts/exceptions.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/conversations/_queued`: the conversations the reviewer holds, and the current one. */
export function getQueued(signal?: AbortSignal): Promise<QueuedConversations> {
  return callRoute('GET', '/internal/conversations/_queued', {
    schema: QueuedConversations,
    ...(signal ? { signal } : {}),
  });
}
