import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import {
  DeadJobOutcome,
  DeadJobs,
  JobIdParams,
  QueueSize,
  type QueueName,
} from '@loopdesk/contracts/jobs.ts';
import { createDeadJobsService, type DeadJobActor } from './dead-jobs.ts';
import { createJobsRepository } from './repository.ts';
import { createSizeCache } from './size-cache.ts';

/**
 * `GET /internal/queues/{queue}/_size` of the job queues (the exceptions queues' sizes are the
 * exception desk's: modules/exceptions/routes.ts) and the dead-letter routes.
 */
export function registerQueueRoutes(api: ApiRouter, db: Database, bus: Bus): void {
  const jobs = createJobsRepository(db);
  const deadJobs = createDeadJobsService({ db, bus });
  const size = createSizeCache((queue: QueueName) => jobs.size(queue));
  const schema = { response: { 200: QueueSize } };
  api.route('GET /internal/queues/federated/_size', { schema }, async () => ({
    size: await size('federated'),
  }));
  api.route('GET /internal/queues/hpi-summarisation/_size', { schema }, async () => ({
    size: await size('hpi-summarisation'),
  }));

  api.route('GET /internal/jobs/_dead', { schema: { response: { 200: DeadJobs } } }, async () => ({
    items: await deadJobs.list(),
  }));

  const actor = (request: Parameters<Parameters<ApiRouter['route']>[2]>[0]): DeadJobActor => ({
    userId: request.user?.id ?? null,
    email: request.user?.email ?? null,
    origin: requestOrigin(request),
  });
  const deadJobAction = { schema: { params: JobIdParams, response: { 200: DeadJobOutcome } } };
  api.route('POST /internal/jobs/:id/_requeue', deadJobAction, async (request) =>
    deadJobs.requeue((request.params as JobIdParams).id, actor(request)),
  );
  api.route('POST /internal/jobs/:id/_discard', deadJobAction, async (request) =>
    deadJobs.discard((request.params as JobIdParams).id, actor(request)),
  );
}
