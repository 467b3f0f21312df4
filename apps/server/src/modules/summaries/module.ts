import fp from 'fastify-plugin';
import type { ReviewedSummary } from '@loopdesk/contracts/summaries.ts';
import { registerSummaryRoutes } from './routes.ts';
import { createSummaryService } from './service.ts';

/** What the summaries module lends the modules above it. */
export interface SummaryReview {
  /** The latest note a reviewer sent for a conversation, or null. The caller audits its read. */
  latestReviewed(tenant: string, conversationId: string): Promise<ReviewedSummary | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    summaryReview: SummaryReview;
  }
}

/**
 * Clinical summary review (issue 12): the assistant's summary jobs (`POST /api/v1/jobs`, queue
 * `hpi-summarisation`) taken on a lease, edited, and sent to the physician through the outbox.
 */
export default fp(
  (app) => {
    const service = createSummaryService({
      db: app.db,
      conversations: app.conversations.service,
      maxAttempts: app.config.env.JOB_MAX_ATTEMPTS,
    });
    registerSummaryRoutes(app.api, service);
    app.decorate('summaryReview', {
      latestReviewed: (tenant, conversationId) => service.latestReviewed(tenant, conversationId),
    } satisfies SummaryReview);
    return Promise.resolve();
  },
  { name: 'summaries', dependencies: ['platform', 'jobs', 'conversations'] },
);
