import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobHooks } from '../integration/service.ts';
import { registerConversationApi, registerConversationRoutes } from '../conversations/routes.ts';
import { createConversationsService } from '../conversations/service.ts';
import { registerPhysicianApi, registerSchedulingRoutes } from '../scheduling/routes.ts';
import { createSchedulingService } from '../scheduling/service.ts';
import { createExceptionDesk } from './desk.ts';
import { registerExceptionRoutes } from './routes.ts';

/**
 * The exception desk with its conversations and scheduling (issue 5), wired into the app: the
 * hub's exceptions sockets, the assistant's /api/v1 calls and tasks, and the /internal routes.
 */
export function createExceptions(deps: {
  db: Database;
  bus: Bus;
  config: Config;
  log: FastifyBaseLogger;
  /** A technician session not seen for this long is gone. */
  staleMs: number;
}) {
  const { db, bus, config, log } = deps;
  const desk = createExceptionDesk({
    db,
    bus,
    log,
    capacity: config.env.EXCEPTION_REVIEWER_CAPACITY,
    staleMs: deps.staleMs,
    sweepMs: config.env.LEASE_SWEEP_SECONDS * 1000,
  });
  const conversations = createConversationsService({ db, listener: desk.listener });
  const scheduling = createSchedulingService(db);
  const jobHooks: JobHooks = {
    attach: (trx, job) => desk.service.attachTask(trx, job),
    created: (job) => desk.taskCreated(job),
  };
  return {
    desk,
    hubHooks: desk.hooks,
    jobHooks,
    extendV1: (v1: FastifyInstance, apiKeyName: (request: FastifyRequest) => string): void => {
      registerConversationApi(v1, { service: conversations, apiKeyName });
      registerPhysicianApi(v1, { service: scheduling, apiKeyName });
    },
    register(api: ApiRouter): void {
      registerConversationRoutes(api, conversations);
      registerExceptionRoutes(api, desk);
      registerSchedulingRoutes(api, scheduling);
    },
  };
}
