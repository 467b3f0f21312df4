import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobHooks } from '../integration/service.ts';
import type { Conversations } from '../conversations/module.ts';
import type { Scheduling } from '../scheduling/module.ts';
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
  conversations: Conversations;
  scheduling: Scheduling;
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
  deps.conversations.listen(desk.listener);
  const jobHooks: JobHooks = {
    attach: (trx, job) => desk.service.attachTask(trx, job),
    created: (job) => desk.taskCreated(job),
  };
  return {
    desk,
    hubHooks: desk.hooks,
    jobHooks,
    extendV1: (v1: FastifyInstance, apiKeyName: (request: FastifyRequest) => string): void => {
      deps.conversations.registerV1(v1, apiKeyName);
      deps.scheduling.registerV1(v1, apiKeyName);
    },
    register(api: ApiRouter): void {
      registerExceptionRoutes(api, desk);
    },
  };
}
