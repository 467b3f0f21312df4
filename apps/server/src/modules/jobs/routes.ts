import type { ApiRouter, RouteRequest } from '../../platform/api-routes.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { DeadJobOutcome, QueueName } from '@loopdesk/contracts/jobs.ts';
import { createJobsRepository, type JobRow } from './repository.ts';
import { createExceptionsRepository } from '../exceptions/repository.ts';
import { recordJobEvent } from '../integration/outbox.ts';

const SIZE_CACHE_MS = 1000;

/** What admins read of a dead-lettered job, in the list and after acting on it. */
const deadJobView = (job: JobRow) => ({
  id: job.id,
  queue: job.queue,
  type: job.type,
  tenant: job.tenant,
  attempts: job.attempts,
  lastError: job.last_error,
  createdAt: new Date(job.created_at).toISOString(),
});

/** `GET /internal/queues/{queue}/_size`: every open portal polls three of these every 5 s. */
export function registerQueueRoutes(api: ApiRouter, db: Database, bus: Bus): void {
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
  api.route('GET /internal/queues/federated/_size', async () => ({
    size: await size('federated'),
  }));
  api.route('GET /internal/queues/exceptions/_size', async () => ({
    size: await size('exceptions'),
  }));
  api.route('GET /internal/queues/hpi-summarisation/_size', async () => ({
    size: await size('hpi-summarisation'),
  }));
  api.route('GET /internal/queues/exceptions-restricted/_size', async () => ({
    size: await size('exceptions-restricted'),
  }));

  api.route('GET /internal/jobs/_dead', async () => ({
    // A dead job was last changed when it died.
    items: (await jobs.listDead(500)).map((job) => ({
      ...deadJobView(job),
      deadAt: new Date(job.updated_at).toISOString(),
    })),
  }));

  const outcome = (job: JobRow): DeadJobOutcome => ({
    ...deadJobView(job),
    state: job.state,
    updatedAt: new Date(job.updated_at).toISOString(),
  });

  /**
   * Acts on one dead job in a transaction with its outbox event (the assistant hears of it) and
   * its audit entry; 404 for an unknown job, 409 naming the state of one that is not dead.
   */
  const actOnDead = (
    request: RouteRequest<'POST /internal/jobs/:id/_requeue' | 'POST /internal/jobs/:id/_discard'>,
    action: 'requeue' | 'discard',
  ): Promise<JobRow> => {
    const { id } = request.params;
    return db.transaction().execute(async (trx) => {
      const changed =
        action === 'requeue' ? await jobs.requeueDead(id, trx) : await jobs.discardDead(id, trx);
      if (!changed) {
        const current = await jobs.findById(id, trx);
        if (!current) {
          throw notFound(`No job with the id '${id}'.`);
        }
        throw conflict(
          `The job ${id} is ${current.state}, not dead: only a dead job can be ${action === 'requeue' ? 'requeued' : 'discarded'}.`,
        );
      }
      const by = { userId: request.user?.id ?? null, email: request.user?.email ?? null };
      if (action === 'requeue') {
        await recordJobEvent(trx, 'job.requeued', changed, {
          previousState: 'dead',
          requeuedBy: by,
        });
      } else {
        await recordJobEvent(trx, 'job.cancelled', changed, {
          previousState: 'dead',
          reason: 'Discarded by an administrator after it was dead-lettered.',
          discardedBy: by,
        });
      }
      await recordAudit(
        trx,
        {
          action: `job.${action}`,
          outcome: 'success',
          actorId: by.userId,
          actorEmail: by.email,
          resourceType: 'job',
          resourceId: id,
          statusCode: 200,
          details: { queue: changed.queue, type: changed.type, tenant: changed.tenant },
        },
        requestOrigin(request),
      );
      return changed;
    });
  };

  api.route('POST /internal/jobs/:id/_requeue', async (request) => {
    const job = await actOnDead(request, 'requeue');
    // Waiting technicians on every node take it at once.
    await bus.publish('jobs.available', { queues: [job.queue] });
    return outcome(job);
  });
  api.route('POST /internal/jobs/:id/_discard', async (request) =>
    outcome(await actOnDead(request, 'discard')),
  );
}
