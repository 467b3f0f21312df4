import {
  MESSAGES_PAGE_SIZE,
  MESSAGES_TAIL_SIZE,
  MessagesPage,
} from '@loopdesk/contracts/conversations.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/conversations/{id}/messages` (spec 2 §7): a page of the transcript, newest
 * first (pages of 10), or its tail after the newest message held (`last={id}&s=100`).
 */
export function getMessages(
  conversationId: string,
  query: { page: number } | { last: string },
  tenant: string,
  signal?: AbortSignal,
): Promise<MessagesPage> {
  return callRoute('GET', '/internal/conversations/:id/messages', {
    params: { id: conversationId },
    query:
      'last' in query
        ? { order: 'createdOn', last: query.last, s: MESSAGES_TAIL_SIZE }
        : { order: '-createdOn', s: MESSAGES_PAGE_SIZE, p: query.page },
    tenantId: tenant,
    schema: MessagesPage,
    ...(signal ? { signal } : {}),
  });
}
