import fp from 'fastify-plugin';
import type { SubmissionType } from '@loopdesk/contracts/realtime.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { checkSubmission } from '@loopdesk/workbench/submission.ts';
import type { JobRow } from '../jobs/repository.ts';
import { createQuinnRepository } from './repository.ts';
import { registerJobContextRoute } from './job-context.ts';
import { registerQuinnRoutes } from './routes.ts';
import { createQuinnService, type QuinnService } from './service.ts';

/** What the workbench module gives the modules above it (the realtime hub). */
export interface Workbench {
  /** The portal's questions to the assistant. */
  readonly service: QuinnService;
  /**
   * The hub's check of a socket submission: the workbench rules of the job it answers, with the
   * intent's latest context menu. A message when it breaks them, null when it passes.
   */
  checkSubmission(
    job: JobRow,
    type: SubmissionType,
    data: Record<string, unknown>,
  ): Promise<string | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    workbench: Workbench;
  }
}

/**
 * The federated workbench's server side (issue 4), see README.md: it brokers the portal's
 * questions to the assistant, Quinn (context menus, memory, message operations), at
 * `/internal/quinn/...` (the paths stay as the spec names them) and `/api/v1/requests`, and checks
 * every socket submission against the workbench rules of the job it answers.
 */
export default fp(
  (app) => {
    const { config } = app;
    const service = createQuinnService({
      repo: createQuinnRepository(app.db),
      db: app.db,
      bus: app.bus,
      timeoutMs: config.env.ASSISTANT_REQUEST_TIMEOUT_SECONDS * 1000,
      cacheMs: config.env.CONTEXT_MENU_CACHE_SECONDS * 1000,
    });
    app.decorate('workbench', {
      service,
      async checkSubmission(job, type, data) {
        const payload =
          typeof job.payload === 'object' && job.payload !== null && !Array.isArray(job.payload)
            ? (job.payload as Record<string, unknown>)
            : {};
        const view = readMessageJob(payload);
        const contextMenu =
          view.intent === undefined
            ? null
            : await service.latestContextMenu(job.tenant, view.intent);
        return checkSubmission({ type: job.type, data: payload, contextMenu }, type, data);
      },
    } satisfies Workbench);
    // Every socket submission meets the workbench rules of the job it answers.
    app.hub.addSubmissionCheck((job, type, data) => app.workbench.checkSubmission(job, type, data));
    registerQuinnRoutes({ api: app.api, v1: app.integration, service });
    // The held job's patient and earlier turns (issue 20), read through the conversations module.
    registerJobContextRoute(app, { api: app.api, db: app.db });
    return Promise.resolve();
  },
  // After the integration API, whose OpenAPI document lists /api/v1/requests.
  { name: 'workbench', dependencies: ['platform', 'realtime', 'integration', 'conversations'] },
);
