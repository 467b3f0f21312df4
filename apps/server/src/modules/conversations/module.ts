import fp from 'fastify-plugin';
import type { ConversationMessage } from '@loopdesk/contracts/conversations.ts';
import { createRedFlags, type RedFlags } from './red-flags.ts';
import type { ConversationRow } from './repository.ts';
import { registerConversationApi, registerConversationRoutes } from './routes.ts';
import {
  createConversationsService,
  type ConversationListener,
  type ConversationsService,
} from './service.ts';

/** What the conversations module gives the modules above it. */
export interface Conversations {
  readonly service: ConversationsService;
  /**
   * Hears about new messages and handovers (the exception desk): the desk sits above this
   * module and registers itself, so no import runs back up.
   */
  listen(listener: ConversationListener): void;
  /**
   * The red flags of patient messages (issue 20): the intelligence module lends the finder
   * (`redFlags.use`); the transcript and the exception desk mark messages with it.
   */
  readonly redFlags: RedFlags;
}

declare module 'fastify' {
  interface FastifyInstance {
    conversations: Conversations;
  }
}

/**
 * Conversations (spec 2 §7): what the assistant records (patients, conversations, messages,
 * handovers) and what reviewers read (transcripts, person summaries, tenant configurations).
 */
export default fp(
  (app) => {
    const listeners: ConversationListener[] = [];
    const redFlags = createRedFlags();
    const service = createConversationsService({
      db: app.db,
      redFlags,
      listener: {
        async messageAdded(conversation: ConversationRow, message: ConversationMessage) {
          for (const listener of listeners) {
            await listener.messageAdded(conversation, message);
          }
        },
        async handedOver() {
          for (const listener of listeners) {
            await listener.handedOver();
          }
        },
      },
    });
    registerConversationRoutes(app.api, service);
    // The assistant's /api/v1 conversation calls, behind the integration API's keys.
    registerConversationApi(app.integration, service);
    app.decorate('conversations', {
      service,
      redFlags,
      listen: (listener) => {
        listeners.push(listener);
      },
    } satisfies Conversations);
    return Promise.resolve();
  },
  { name: 'conversations', dependencies: ['platform', 'integration'] },
);
