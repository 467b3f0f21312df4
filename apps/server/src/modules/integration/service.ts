import { isDeepStrictEqual } from 'node:util';
import type { CreateJobBody } from '@loopdesk/contracts/integration.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { createJobsRepository, type JobRow } from '../jobs/repository.ts';
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

  return {
    /** Creates a job, or answers the job an earlier request with the same key created. */
    async create(
      body: CreateJobBody,
      key: string,
      apiKey: RequestApiKey,
      origin: Origin,
    ): Promise<{ job: JobRow; created: boolean }> {
      const existing = await byKey(key);
      if (existing) {
        return replay(existing, body, key, apiKey, origin);
      }
      let job: JobRow;
      let enqueued: Enqueued | null;
      try {
        ({ job, enqueued } = await db.transaction().execute(async (trx) => {
          const newJob = {
            queue: body.queue,
            type: body.type,
            tenant: body.tenant,
            payload: body.data,
            ...(body.priority === undefined ? {} : { priority: body.priority }),
            idempotencyKey: key,
          };
          // With the hub, a waiting technician may get the job in this very statement.
          const handed = deps.dispatcher ? await deps.dispatcher.enqueue(newJob, trx) : null;
          const stored = handed ? withoutTaker(handed) : await jobs.enqueue(newJob, trx);
          let row = stored;
          for (const hook of deps.hooks ?? []) {
            row = await hook.attach(trx, row);
          }
          await recordAudit(
            trx,
            {
              action: 'integration.job.create',
              outcome: 'success',
              resourceType: 'job',
              resourceId: row.id,
              statusCode: 201,
              details: {
                ...actorOf(apiKey),
                idempotencyKey: key,
                queue: row.queue,
                type: row.type,
              },
            },
            origin,
          );
          await recordJobEvent(trx, 'job.created', row);
          return { job: row, enqueued: handed };
        }));
      } catch (error) {
        // A concurrent request with the same key won the insert: answer as its replay.
        const winner = isUniqueViolation(error) ? await byKey(key) : undefined;
        if (!winner) {
          throw error;
        }
        return replay(winner, body, key, apiKey, origin);
      }
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
