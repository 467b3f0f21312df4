import type { ConversationMessage } from '@loopdesk/contracts/conversations.ts';
import type { ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import type { RedFlags } from '../conversations/red-flags.ts';
import { toMessage, type ConversationsRepository } from '../conversations/repository.ts';

/** The queue rail reads at most this many of a conversation's latest messages for red flags. */
export const RED_FLAG_MESSAGES = 200;

/**
 * Red flags at the desk (issue 20): each patient message is marked with the red flags found in
 * it (the conversations module's finder), and each conversation of the queue rail with the red
 * flags of its patient's latest messages, so the rail shows them after a reload too.
 */
export function createDeskRedFlags(redFlags: RedFlags, conversations: ConversationsRepository) {
  return {
    mark: (message: ConversationMessage): ConversationMessage => redFlags.mark(message),
    ready: (): Promise<void> => redFlags.ready(),

    async ofConversations(
      items: readonly ExceptionConversation[],
    ): Promise<ExceptionConversation[]> {
      await redFlags.ready();
      return Promise.all(
        items.map(async (item) => {
          const rows = await conversations.listPage(item.conversationId, {
            number: 0,
            size: RED_FLAG_MESSAGES,
            newestFirst: true,
          });
          const names = new Set<string>();
          for (const row of rows.reverse()) {
            for (const flag of redFlags.mark(toMessage(row)).redFlags ?? []) {
              names.add(flag.observation);
            }
          }
          return { ...item, redFlags: [...names] };
        }),
      );
    },
  };
}

export type DeskRedFlags = ReturnType<typeof createDeskRedFlags>;
