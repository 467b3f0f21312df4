import {
  isDerivedMessageId,
  type ConversationMessage,
  type RedFlag,
} from '@loopdesk/contracts/conversations.ts';

/** Finds the red flags in what a patient wrote (lent by the intelligence module). */
export interface RedFlagFinder {
  (text: string): RedFlag[];
  /** Settles when it can answer (a large knowledge base's recogniser is built in the background). */
  readonly ready?: Promise<void>;
}

/**
 * The red flags of the desk (issue 20): the intelligence module, above this one, lends its finder
 * (the clinical recogniser over the served knowledge base); until it does, nothing is flagged.
 */
export function createRedFlags() {
  let finder: RedFlagFinder | null = null;
  const find = (text: string): RedFlag[] => (finder ? finder(text) : []);
  return {
    use(next: RedFlagFinder): void {
      finder = next;
    },
    find,
    /**
     * Waits until the finder can answer (issue 22): a large knowledge base's recogniser is built
     * in the background. A failed build is logged by the knowledge module; marking then fails.
     */
    ready: async (): Promise<void> => {
      await finder?.ready?.catch(() => undefined);
    },
    /** A patient's message with the red flags found in it; other messages as they are. */
    mark(message: ConversationMessage): ConversationMessage {
      if (message.direction !== 'IN' || isDerivedMessageId(message.id)) {
        return message;
      }
      return { ...message, redFlags: find(message.content) };
    },
  };
}

export type RedFlags = ReturnType<typeof createRedFlags>;
