import type { FastifyInstance } from 'fastify';
import type { SubmissionType } from '@loopdesk/contracts/realtime.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { checkSubmission } from '@loopdesk/workbench/submission.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobRow } from '../jobs/repository.ts';
import { createQuinnRepository } from './repository.ts';
import { registerQuinnRoutes } from './routes.ts';
import { createQuinnService } from './service.ts';

/**
 * The federated workbench's server side (issue 4): the portal's questions to the assistant
 * (context menus, memory, message operations) and the check of every socket submission against
 * the workbench rules of the job it answers.
 */
export function createQuinn(deps: { db: Database; bus: Bus; config: Config }) {
  const service = createQuinnService({
    repo: createQuinnRepository(deps.db),
    bus: deps.bus,
    timeoutMs: deps.config.env.ASSISTANT_REQUEST_TIMEOUT_SECONDS * 1000,
    cacheMs: deps.config.env.CONTEXT_MENU_CACHE_SECONDS * 1000,
  });

  return {
    service,

    /** The hub's `checkSubmission`: the workbench rules, with the intent's latest context menu. */
    async checkSubmission(
      job: JobRow,
      type: SubmissionType,
      data: Record<string, unknown>,
    ): Promise<string | null> {
      const payload =
        typeof job.payload === 'object' && job.payload !== null && !Array.isArray(job.payload)
          ? (job.payload as Record<string, unknown>)
          : {};
      const view = readMessageJob(payload);
      const contextMenu =
        view.intent === undefined ? null : await service.latestContextMenu(job.tenant, view.intent);
      return checkSubmission({ type: job.type, data: payload, contextMenu }, type, data);
    },

    /** Registers `/internal/quinn/...` and the assistant's `/api/v1/requests`. */
    register(app: FastifyInstance, api: ApiRouter): Promise<void> {
      return registerQuinnRoutes(app, { api, db: deps.db, service });
    },
  };
}
