import type { DeadJobOutcome } from '@loopdesk/contracts/jobs.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { recordJobEvent } from './events.ts';
import { createJobsRepository, type JobRow } from './repository.ts';

/** What admins read of a dead-lettered job, in the list and after acting on it. */
export const deadJobView = (job: JobRow) => ({
  id: job.id,
  queue: job.queue,
  type: job.type,
  tenant: job.tenant,
  attempts: job.attempts,
  lastError: job.last_error,
  createdAt: new Date(job.created_at).toISOString(),
});

/** A dead job after an admin acted on it: its state now and when it changed. */
export const deadJobOutcome = (job: JobRow): DeadJobOutcome => ({
  ...deadJobView(job),
  state: job.state,
  updatedAt: new Date(job.updated_at).toISOString(),
});

/** Who acted, and from where, for the outbox event and the audit trail. */
export interface DeadJobActor {
  readonly userId: string | null;
  readonly email: string | null;
  readonly origin: { ip: string | null; userAgent: string | null; requestId: string | null };
}

/** The dead-letter queue admins work through: list, requeue, discard (spec 3 §7 Admin). */
export function createDeadJobsService(deps: { db: Database; bus: Bus }) {
  const { db, bus } = deps;
  const jobs = createJobsRepository(db);

  /**
   * Acts on one dead job in a transaction with its outbox event (the assistant hears of it) and
   * its audit entry; 404 for an unknown job, 409 naming the state of one that is not dead.
   */
  function actOnDead(
    id: string,
    action: 'requeue' | 'discard',
    actor: DeadJobActor,
  ): Promise<JobRow> {
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
      const by = { userId: actor.userId, email: actor.email };
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
        actor.origin,
      );
      return changed;
    });
  }

  return {
    /** The dead jobs, newest first; a dead job was last changed when it died. */
    async list() {
      return (await jobs.listDead(500)).map((job) => ({
        ...deadJobView(job),
        deadAt: new Date(job.updated_at).toISOString(),
      }));
    },

    /** Puts a dead job back at its queue; waiting technicians on every node take it at once. */
    async requeue(id: string, actor: DeadJobActor): Promise<DeadJobOutcome> {
      const job = await actOnDead(id, 'requeue', actor);
      await bus.publish('jobs.available', { queues: [job.queue] });
      return deadJobOutcome(job);
    },

    /** Cancels a dead job for good; the assistant hears of it as job.cancelled. */
    async discard(id: string, actor: DeadJobActor): Promise<DeadJobOutcome> {
      return deadJobOutcome(await actOnDead(id, 'discard', actor));
    },
  };
}

export type DeadJobsService = ReturnType<typeof createDeadJobsService>;
