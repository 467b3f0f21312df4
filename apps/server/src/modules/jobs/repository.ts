import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { DB, JobsTable } from '../../platform/db/schema.ts';
import type { QueueName } from '@loopdesk/contracts/jobs.ts';

export type JobRow = Selectable<JobsTable>;
type Executor = Database | Transaction<DB>;

/**
 * Job ids are UUIDs: any other text names no job. Checked before the query, where PostgreSQL
 * would refuse the text as a uuid and the caller would see a 500 (found by the fuzz drill).
 */
const isJobId = (id: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** JOB_MAX_ATTEMPTS's default. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Why an attempt ended without a submission: the job's `last_error`, shown to admins. */
export const LEASE_RAN_OUT = 'The lease ran out before the technician submitted a result.';
export const TECHNICIAN_LEFT =
  'The technician let the job go before submitting a result (the socket closed, or the session was paused or closed).';

export interface NewJob {
  queue: QueueName;
  type: string;
  tenant: string;
  payload: unknown;
  priority?: number;
  maxAttempts?: number;
  idempotencyKey?: string | null;
}

/** SQL over the jobs table. Every function takes an optional transaction. */
export function createJobsRepository(db: Database) {
  return {
    /**
     * Live jobs by queue: queued, and assigned to a technician (the metrics' queue depths). Both
     * arms are served by the partial indexes of the claim (state = 'queued') and of the lease
     * sweep (state = 'assigned'); completed jobs, which pile up for ever, are never counted.
     */
    async liveCounts(): Promise<{ queue: string; state: 'queued' | 'assigned'; n: number }[]> {
      const rows = await db
        .selectFrom('jobs')
        .select([
          'queue',
          sql<'queued' | 'assigned'>`'queued'`.as('state'),
          sql<string>`count(*)`.as('n'),
        ])
        .where('state', '=', 'queued')
        .groupBy('queue')
        .unionAll(
          db
            .selectFrom('jobs')
            .select([
              'queue',
              sql<'queued' | 'assigned'>`'assigned'`.as('state'),
              sql<string>`count(*)`.as('n'),
            ])
            .where('state', '=', 'assigned')
            .groupBy('queue'),
        )
        .execute();
      return rows.map((row) => ({ queue: row.queue, state: row.state, n: Number(row.n) }));
    },

    async enqueue(job: NewJob, trx: Executor = db): Promise<JobRow> {
      return trx
        .insertInto('jobs')
        .values({
          queue: job.queue,
          type: job.type,
          tenant: job.tenant,
          payload: JSON.stringify(job.payload),
          ...(job.priority === undefined ? {} : { priority: job.priority }),
          ...(job.maxAttempts === undefined ? {} : { max_attempts: job.maxAttempts }),
          idempotency_key: job.idempotencyKey ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Queued jobs of a queue: what the bell counts. */
    async size(queue: QueueName, trx: Executor = db): Promise<number> {
      const row = await trx
        .selectFrom('jobs')
        .select(sql<number>`count(*)::int`.as('size'))
        .where('queue', '=', queue)
        .where('state', '=', 'queued')
        .executeTakeFirstOrThrow();
      return row.size;
    },

    /**
     * Takes the next queued job of a queue for a technician, first by priority then by age;
     * concurrent claimers skip rows another transaction holds, so no job goes to two people.
     */
    async claim(
      queue: QueueName,
      assigneeId: string,
      leaseMs: number,
      trx: Executor = db,
    ): Promise<JobRow | undefined> {
      const result = await sql<JobRow>`
        update jobs set
          state = 'assigned',
          assignee_id = ${assigneeId},
          attempts = attempts + 1,
          lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
          updated_at = now()
        where id = (
          select id from jobs
          where queue = ${queue} and state = 'queued'
          order by priority desc, queued_at asc, seq asc
          for update skip locked
          limit 1
        )
        returning *`.execute(trx);
      return result.rows[0];
    },

    /** Completes a job its assignee holds; undefined when the job is not theirs any more. */
    async complete(
      jobId: string,
      assigneeId: string,
      result: unknown,
      trx: Executor = db,
    ): Promise<JobRow | undefined> {
      return trx
        .updateTable('jobs')
        .set({
          state: 'completed',
          result: JSON.stringify(result),
          completed_at: new Date(),
          updated_at: new Date(),
          lease_expires_at: null,
        })
        .where('id', '=', jobId)
        .where('state', '=', 'assigned')
        .where('assignee_id', '=', assigneeId)
        .returningAll()
        .executeTakeFirst();
    },

    /** The job if `assigneeId` completed it, else undefined. */
    async findCompletedBy(jobId: string, assigneeId: string, trx: Executor = db) {
      return trx
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .where('state', '=', 'completed')
        .where('assignee_id', '=', assigneeId)
        .executeTakeFirst();
    },

    /** The job if `assigneeId` holds it now (assigned to them), else undefined. */
    async findHeld(jobId: string, assigneeId: string, trx: Executor = db) {
      if (!isJobId(jobId)) {
        return undefined;
      }
      return trx
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .where('state', '=', 'assigned')
        .where('assignee_id', '=', assigneeId)
        .executeTakeFirst();
    },

    /**
     * Puts jobs back at the head of their queue (they keep their age), or dead-letters those that
     * used up their attempts: their own `max_attempts`, else `where.maxAttempts`
     * (JOB_MAX_ATTEMPTS). Used when a socket closes and when leases run out.
     */
    async release(
      where: {
        jobId?: string;
        /** Any of these jobs (an empty list matches none). */
        jobIds?: readonly string[];
        expiredBefore?: Date;
        /** Only jobs of this queue (the summary screen returns its own expired leases). */
        queue?: QueueName;
        /** Only while this technician still holds it… */
        assigneeId?: string;
        /** …in this attempt (a job handed back and taken again is another attempt). */
        attempts?: number;
        maxAttempts?: number | undefined;
      },
      trx: Executor = db,
    ): Promise<JobRow[]> {
      if (where.jobIds?.length === 0) {
        return [];
      }
      const limit = where.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      const result = await sql<JobRow>`
        update jobs set
          -- An agreement sample that used up its attempts ends (cancelled): it is nobody's loss.
          state = case when attempts < coalesce(max_attempts, ${limit}) then 'queued'
            when agreement_of is not null then 'cancelled' else 'dead' end,
          last_error = ${where.expiredBefore ? LEASE_RAN_OUT : TECHNICIAN_LEFT},
          assignee_id = null,
          lease_expires_at = null,
          updated_at = now()
        where state = 'assigned'
          ${where.jobId ? sql`and id = ${where.jobId}` : sql``}
          ${where.jobIds ? sql`and id = any(${[...where.jobIds]}::uuid[])` : sql``}
          ${where.expiredBefore ? sql`and lease_expires_at < ${where.expiredBefore}` : sql``}
          ${where.queue ? sql`and queue = ${where.queue}` : sql``}
          ${where.assigneeId ? sql`and assignee_id = ${where.assigneeId}` : sql``}
          ${where.attempts === undefined ? sql`` : sql`and attempts = ${where.attempts}`}
        returning *`.execute(trx);
      return result.rows;
    },

    /** Cancels a queued or assigned job; undefined when it is in neither state (any more). */
    cancel(jobId: string, trx: Executor = db): Promise<JobRow | undefined> {
      return trx
        .updateTable('jobs')
        .set({
          state: 'cancelled',
          assignee_id: null,
          lease_expires_at: null,
          updated_at: new Date(),
        })
        .where('id', '=', jobId)
        .where('state', 'in', ['queued', 'assigned'])
        .returningAll()
        .executeTakeFirst();
    },

    /** Dead-lettered jobs, newest first. */
    listDead(limit: number, trx: Executor = db): Promise<JobRow[]> {
      return trx
        .selectFrom('jobs')
        .selectAll()
        .where('state', '=', 'dead')
        .orderBy('updated_at', 'desc')
        .limit(limit)
        .execute();
    },

    /**
     * Puts a dead job back in its queue with a fresh set of attempts; it keeps its age, so it
     * comes before younger jobs of its priority. Undefined when the job is not dead (any more).
     */
    async requeueDead(jobId: string, trx: Executor = db): Promise<JobRow | undefined> {
      return trx
        .updateTable('jobs')
        .set({ state: 'queued', attempts: 0, updated_at: sql<Date>`now()` })
        .where('id', '=', jobId)
        .where('state', '=', 'dead')
        .returningAll()
        .executeTakeFirst();
    },

    /** Discards a dead job: it is cancelled for good. Undefined when it is not dead (any more). */
    async discardDead(jobId: string, trx: Executor = db): Promise<JobRow | undefined> {
      return trx
        .updateTable('jobs')
        .set({ state: 'cancelled', updated_at: sql<Date>`now()` })
        .where('id', '=', jobId)
        .where('state', '=', 'dead')
        .returningAll()
        .executeTakeFirst();
    },

    async findById(jobId: string, trx: Executor = db): Promise<JobRow | undefined> {
      if (!isJobId(jobId)) {
        return undefined;
      }
      return trx.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
    },

    /** A job, locked until the caller's transaction ends (a cancel reads its state under it). */
    async lockById(jobId: string, trx: Transaction<DB>): Promise<JobRow | undefined> {
      if (!isJobId(jobId)) {
        return undefined;
      }
      return trx
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .forUpdate()
        .executeTakeFirst();
    },

    /** The job an `Idempotency-Key` created, if any (`POST /api/v1/jobs`). */
    findByIdempotencyKey(key: string, trx: Executor = db): Promise<JobRow | undefined> {
      return trx
        .selectFrom('jobs')
        .selectAll()
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
    },
  };
}

export type JobsRepository = ReturnType<typeof createJobsRepository>;
