import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Database } from '../../platform/db/database.ts';
import { DeadJobs, QueueSize, type QueueName } from '@loopdesk/contracts/jobs.ts';
import { createJobsRepository } from './repository.ts';
import { createExceptionsRepository } from '../exceptions/repository.ts';

const SIZE_CACHE_MS = 1000;

/** `GET /internal/queues/{queue}/_size`: every open portal polls three of these every 5 s. */
export function registerQueueRoutes(api: ApiRouter, db: Database): void {
  const jobs = createJobsRepository(db);
  // One count per queue per second per node, however many portals poll.
  const cache = new Map<QueueName, { at: number; size: Promise<number> }>();
  const size = (queue: QueueName): Promise<number> => {
    const hit = cache.get(queue);
    if (hit && Date.now() - hit.at < SIZE_CACHE_MS) {
      return hit.size;
    }
    // The exceptions queues hold conversations waiting for a reviewer (issue 5).
    const fresh =
      queue === 'exceptions' || queue === 'exceptions-restricted'
        ? createExceptionsRepository(db).queueSize(queue)
        : jobs.size(queue);
    cache.set(queue, { at: Date.now(), size: fresh });
    fresh.catch(() => cache.delete(queue));
    return fresh;
  };
  const schema = { response: { 200: QueueSize } };
  api.route('GET /internal/queues/federated/_size', { schema }, async () => ({
    size: await size('federated'),
  }));
  api.route('GET /internal/queues/exceptions/_size', { schema }, async () => ({
    size: await size('exceptions'),
  }));
  api.route('GET /internal/queues/hpi-summarisation/_size', { schema }, async () => ({
    size: await size('hpi-summarisation'),
  }));
  api.route('GET /internal/queues/exceptions-restricted/_size', { schema }, async () => ({
    size: await size('exceptions-restricted'),
  }));

  api.route('GET /internal/jobs/_dead', { schema: { response: { 200: DeadJobs } } }, async () => ({
    items: (await jobs.listDead(500)).map((job) => ({
      id: job.id,
      queue: job.queue,
      type: job.type,
      tenant: job.tenant,
      attempts: job.attempts,
      updatedAt: new Date(job.updated_at).toISOString(),
    })),
  }));
}
