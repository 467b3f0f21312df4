import { isDeepStrictEqual } from 'node:util';
import type { CreateJobBody } from '@loopdesk/contracts/integration.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { observeStep } from '../../platform/metrics.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { createJobsRepository, type JobRow, type NewJob } from '../jobs/repository.ts';
import type { Enqueued } from '../realtime/dispatch.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import type { Origin, RequestApiKey } from './api-keys.ts';
import { recordJobEvent } from '../jobs/events.ts';

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

/** Whether a stored job is what this create request would have made. */
function sameRequest(job: JobRow, body: CreateJobBody): boolean {
  return (
    job.queue === body.queue &&
    job.type === body.type &&
    job.tenant === body.tenant &&
    job.priority === (body.priority ?? 0) &&
    // jsonb keeps neither key order nor spelling of numbers: compare values.
    isDeepStrictEqual(job.payload, JSON.parse(JSON.stringify(body.data)))
  );
}

/** The stored job without the hand-off's socket columns. */
function withoutTaker(enqueued: Enqueued): JobRow {
  const { conn_id: _connection, taker_node: _node, ...job } = enqueued;
  return job;
}

const actorOf = (apiKey: RequestApiKey) => ({
  apiKey: apiKey.name,
  apiKeyId: apiKey.id,
  apiKeyPrefix: apiKey.prefix,
});

/** What another module does with a new job: check it in its transaction, then hear of it. */
export interface JobHooks {
  /**
   * Whether `attach` may refuse or change a job of this queue (every queue when absent): a job
   * no hook attaches to is created in one statement, without a transaction.
   */
  attaches?(queue: string): boolean;
  /** May refuse (throw an AppError: nothing is stored) or change the new job, e.g. assign it. */
  attach(trx: Transaction<DB>, job: JobRow): Promise<JobRow>;
  created(job: JobRow): Promise<void>;
}

/** Jobs the assistant creates, reads and cancels; each change and its outbox event commit together. */
export function createIntegrationJobsService(deps: {
  db: Database;
  bus: Bus;
  /** Called after a commit that wrote outbox events (the webhook worker looks sooner). */
  onEvent?: () => void;
  /** Other modules' hooks (the exception desk's tasks), run in the order they were added. */
  hooks?: readonly JobHooks[];
  /**
   * The realtime hub: a new job goes straight to a waiting technician in the create transaction
   * (the direct hand-off) and its frame after commit. Without it, jobs are queued and announced.
   */
  dispatcher?: Pick<RealtimeHub, 'enqueue' | 'announce'>;
}) {
  const { db, bus } = deps;
  const jobs = createJobsRepository(db);

  const byKey = (key: string) => jobs.findByIdempotencyKey(key);

  /** Whether a hook may refuse or change a new job of this queue (then it needs a transaction). */
  const attached = (queue: string) =>
    (deps.hooks ?? []).some((hook) => hook.attaches?.(queue) ?? true);

  async function replay(
    existing: JobRow,
    body: CreateJobBody,
    key: string,
    apiKey: RequestApiKey,
    origin: Origin,
  ): Promise<{ job: JobRow; created: false }> {
    if (!sameRequest(existing, body)) {
      throw conflict(
        `The Idempotency-Key '${key}' was already used for a different request (job ${existing.id}): send a new key for a new job.`,
      );
    }
    await recordAudit(
      db,
      {
        action: 'integration.job.create',
        outcome: 'success',
        resourceType: 'job',
        resourceId: existing.id,
        statusCode: 200,
        details: { ...actorOf(apiKey), idempotencyKey: key, replayed: true },
      },
      origin,
    );
    return { job: existing, created: false };
  }

  /**
   * Creates a job in a transaction, for the queues whose hooks check or change their new jobs:
   * the job (handed to a waiting technician when one can take it), the hooks' work, the audit
   * entry and the outbox event commit together.
   */
  function createInTransaction(
    newJob: NewJob,
    audit: { action: string; statusCode: number; details: Record<string, unknown> },
    origin: Origin,
  ): Promise<{ job: JobRow; enqueued: Enqueued | null }> {
    return db.transaction().execute(async (trx) => {
      // With the hub, a waiting technician may get the job in this very statement.
      const handed = deps.dispatcher ? await deps.dispatcher.enqueue(newJob, trx) : null;
      let row = handed ? withoutTaker(handed) : await jobs.enqueue(newJob, trx);
      for (const hook of deps.hooks ?? []) {
        row = await hook.attach(trx, row);
      }
      await recordAudit(
        trx,
        {
          action: audit.action,
          outcome: 'success',
          resourceType: 'job',
          resourceId: row.id,
          statusCode: audit.statusCode,
          details: audit.details,
        },
        origin,
      );
      await recordJobEvent(trx, 'job.created', row);
      return { job: row, enqueued: handed };
    });
  }

  return {
    /** Creates a job, or answers the job an earlier request with the same key created. */
    async create(
      body: CreateJobBody,
      key: string,
      apiKey: RequestApiKey,
      origin: Origin,
    ): Promise<{ job: JobRow; created: boolean }> {
      const started = performance.now();
      const newJob = {
        queue: body.queue,
        type: body.type,
        tenant: body.tenant,
        payload: body.data,
        ...(body.priority === undefined ? {} : { priority: body.priority }),
        idempotencyKey: key,
      };
      const audit = {
        action: 'integration.job.create',
        statusCode: 201,
        details: { ...actorOf(apiKey), idempotencyKey: key, queue: body.queue, type: body.type },
      };
      let job: JobRow;
      let enqueued: Enqueued | null;
      try {
        if (deps.dispatcher && !attached(body.queue)) {
          // One statement: the job (handed to a waiting technician when one can take it), its
          // audit entry and its outbox event. A key used before fails its unique index, and is
          // answered as that request's replay below.
          enqueued = await deps.dispatcher.enqueue(newJob, undefined, {
            audit: { ...audit, ...origin },
          });
          job = withoutTaker(enqueued);
        } else {
          ({ job, enqueued } = await createInTransaction(newJob, audit, origin));
        }
      } catch (error) {
        // The key names an earlier job (or a concurrent request with it won the insert): answer
        // as its replay.
        const winner = isUniqueViolation(error) ? await byKey(key) : undefined;
        if (!winner) {
          throw error;
        }
        return replay(winner, body, key, apiKey, origin);
      }
      observeStep('api.create', started);
      const committed = performance.now();
      if (enqueued && deps.dispatcher) {
        // The frame to the technician it went to, or word that the queue has work.
        await deps.dispatcher.announce(enqueued);
      } else {
        await bus.publish('jobs.available', { queues: [job.queue] });
      }
      for (const hook of deps.hooks ?? []) {
        await hook.created(job);
      }
      deps.onEvent?.();
      observeStep('api.announce', committed);
      return { job, created: true };
    },

    async get(id: string): Promise<JobRow> {
      const job = await jobs.findById(id);
      if (!job) {
        throw notFound(`No job with the id '${id}'.`);
      }
      return job;
    },

    /** Cancels a queued or assigned job; 409 when it is already finished. */
    async cancel(id: string, apiKey: RequestApiKey, origin: Origin): Promise<JobRow> {
      const { job, previous } = await db.transaction().execute(async (trx) => {
        const before = await jobs.lockById(id, trx);
        if (!before) {
          throw notFound(`No job with the id '${id}'.`);
        }
        const cancelled = await jobs.cancel(id, trx);
        if (!cancelled) {
          throw conflict(
            `The job ${id} is ${before.state}: only a queued or assigned job can be cancelled.`,
          );
        }
        await recordAudit(
          trx,
          {
            action: 'integration.job.cancel',
            outcome: 'success',
            resourceType: 'job',
            resourceId: id,
            statusCode: 200,
            details: { ...actorOf(apiKey), previousState: before.state },
          },
          origin,
        );
        await recordJobEvent(trx, 'job.cancelled', cancelled, { previousState: before.state });
        return { job: cancelled, previous: before };
      });
      if (previous.state === 'assigned') {
        // The technician holding it is told, on whichever node holds the socket.
        await bus.publish('jobs.withdrawn', { jobIds: [id] });
      }
      deps.onEvent?.();
      return job;
    },
  };
}

export type IntegrationJobsService = ReturnType<typeof createIntegrationJobsService>;
