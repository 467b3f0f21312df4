import type { ApiRouter, RouteRequest } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import type { QueueName } from '@loopdesk/contracts/jobs.ts';
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
  api.route('GET /internal/queues/federated/_size', async () => ({
    size: await size('federated'),
  }));
  api.route('GET /internal/queues/hpi-summarisation/_size', async () => ({
    size: await size('hpi-summarisation'),
  }));

  api.route('GET /internal/jobs/_dead', async () => ({
    items: await deadJobs.list(),
  }));

  const actor = (
    request: RouteRequest<'POST /internal/jobs/:id/_requeue' | 'POST /internal/jobs/:id/_discard'>,
  ): DeadJobActor => ({
    userId: request.user?.id ?? null,
    email: request.user?.email ?? null,
    origin: requestOrigin(request),
  });
  api.route('POST /internal/jobs/:id/_requeue', async (request) =>
    deadJobs.requeue(request.params.id, actor(request)),
  );
  api.route('POST /internal/jobs/:id/_discard', async (request) =>
    deadJobs.discard(request.params.id, actor(request)),
  );
}
