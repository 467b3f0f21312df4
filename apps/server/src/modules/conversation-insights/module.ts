import fp from 'fastify-plugin';
import { ConversationIdParams } from '@loopdesk/contracts/conversations.ts';
import { createMemoryKeeper } from './memory.ts';
import { createInsightsRepository } from './repository.ts';
import { registerInsightsRoutes } from './routes.ts';
import { createInsightsService } from './service.ts';
import type { SummaryReviewPort } from './summary.ts';

/** The route whose answer (the assistant's memory of a conversation) the memory takes in. */
const QUINN_MEMORY_ROUTE = '/internal/quinn/conversations/:id/_memory';

/**
 * Conversation insights (issue 14): each conversation's memory graph, kept as messages,
 * annotations, handovers and the assistant's memory answers arrive; its current clinical summary;
 * and finding conversations. Read by the conversation visualiser (`/conversations`).
 */
export default fp(
  (app) => {
    const repo = createInsightsRepository(app.db);
    const memory = createMemoryKeeper({
      db: app.db,
      repo,
      // Read at each use: the knowledge base is revised while the server runs.
      clinical: () => ({
        recogniser: app.knowledge.recogniser,
        differential: app.knowledge.differential,
        items: app.knowledge.kb.items,
      }),
    });
    const refreshLater = (conversationId: string) => {
      memory
        .refresh(conversationId)
        .catch((error: unknown) =>
          app.log.error({ err: error, conversationId }, 'conversation memory refresh failed'),
        );
    };
    // New messages and handovers update the memory at once (reads catch up on anything missed).
    app.conversations.listen({
      messageAdded: (conversation) => {
        refreshLater(conversation.id);
        return Promise.resolve();
      },
      handedOver: () => Promise.resolve(),
    });
    // The assistant's answer to POST …/_memory adds to the memory.
    app.addHook('onResponse', async (request, reply) => {
      if (request.routeOptions.url === QUINN_MEMORY_ROUTE && reply.statusCode === 200) {
        const params = ConversationIdParams.safeParse(request.params);
        if (params.success) {
          refreshLater(params.data.id);
        }
      }
    });
    const service = createInsightsService({
      db: app.db,
      repo,
      memory,
      // The clinical summary helper's decorator, when that module is there (COMMON.md seams).
      summaryReview: () =>
        app.hasDecorator('summaryReview')
          ? (app as unknown as { summaryReview: SummaryReviewPort }).summaryReview
          : undefined,
    });
    registerInsightsRoutes(app.api, service);
    return Promise.resolve();
  },
  {
    name: 'conversation-insights',
    dependencies: ['platform', 'knowledge', 'conversations'],
  },
);
