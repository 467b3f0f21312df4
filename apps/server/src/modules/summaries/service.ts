import { sql, type Transaction } from 'kysely';
import { MESSAGES_PAGE_SIZE, type MessagesPage } from '@loopdesk/contracts/conversations.ts';
import {
  SUMMARY_QUEUE,
  SUMMARY_SENT_TYPE,
  SummaryJobData,
  type ReviewedSummary,
  type SentSummaryJob,
  type SummaryJob,
} from '@loopdesk/contracts/summaries.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { ConversationsService } from '../conversations/service.ts';
import { completedEventData, recordJobEvent, recordReturnedJobs } from '../jobs/events.ts';
import { createJobsRepository, type JobRow } from '../jobs/repository.ts';
import { createSummaryReviewsRepository, type ReviewRow } from './repository.ts';

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

/** What a save or a send of a job takes: the job's id, the job, the X-Tenant-ID, who, whence. */
type ChangeArgs = [id: string, body: SummaryJob, tenant: string, user: RequestUser, origin: Origin];

/**
 * How long a reviewer holds a summary job: 30 minutes from taking it or from the last save (the
 * screen saves as the reviewer edits). Then it goes back to the head of the queue.
 */
export const SUMMARY_LEASE_MS = 30 * 60 * 1000;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The job as the summary screen reads it: the reviewer's saved version, else the assistant's. */
export function toSummaryJob(job: JobRow, review: ReviewRow | undefined): SummaryJob {
  const data = SummaryJobData.parse(job.payload);
  return {
    id: job.id,
    metadata: { tenant: job.tenant, conversationId: data.conversationId },
    document: review ? (review.document as SummaryJob['document']) : data.document,
    sourceName: review?.source_name ?? data.sourceName,
    sourceVersion: review?.source_version ?? data.sourceVersion,
    createdOn: iso(job.created_at),
    leaseExpiresAt: job.lease_expires_at ? iso(job.lease_expires_at) : null,
    savedAt: review ? iso(review.saved_at) : null,
  };
}

const notHeld = (id: string) =>
  conflict(`You do not hold summary job ${id} (any more): take the next job with 'Get next job'.`);

/**
 * Clinical summary review (issue 12): reviewers take the oldest summary job on a lease, save
 * their edits of the note, read its conversation, and send it to the physician, which completes
 * the job and tells the assistant (`job.completed`, result `hpi.summarised`) in one transaction.
 * Every read and write is audited, refusals included.
 */
export function createSummaryService(deps: {
  db: Database;
  conversations: ConversationsService;
  /** JOB_MAX_ATTEMPTS: a job whose lease ran out this often is dead-lettered for admins. */
  maxAttempts: number;
  leaseMs?: number;
}) {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? SUMMARY_LEASE_MS;
  const jobs = createJobsRepository(db);
  const reviews = createSummaryReviewsRepository(db);

  const audit = (
    action: string,
    user: RequestUser,
    origin: Origin,
    entry: {
      outcome?: 'success' | 'denied';
      jobId?: string | null;
      statusCode?: number;
      details?: Record<string, unknown>;
    },
  ) =>
    recordAudit(
      db,
      {
        action,
        outcome: entry.outcome ?? 'success',
        actorId: user.id,
        actorEmail: user.email,
        resourceType: 'summary_job',
        resourceId: entry.jobId ?? null,
        statusCode: entry.statusCode ?? 200,
        details: entry.details ?? {},
      },
      origin,
    );

  /** Runs `work`; a refusal (a 4xx) is written to the audit trail before it is answered. */
  async function audited<T>(
    action: string,
    jobId: string,
    user: RequestUser,
    origin: Origin,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) {
        await audit(action, user, origin, {
          outcome: 'denied',
          jobId,
          statusCode: error.statusCode,
          details: { reason: error.message },
        });
      }
      throw error;
    }
  }

  /** The summary job `id` locked for the transaction, if the caller may change it now. */
  async function heldForChange(
    trx: Transaction<DB>,
    id: string,
    body: SummaryJob,
    tenant: string,
    user: RequestUser,
    verb: string,
  ): Promise<JobRow> {
    const job = await jobs.lockById(id, trx);
    if (!job || job.queue !== SUMMARY_QUEUE) {
      throw notFound(`No summary job with the id '${id}'.`);
    }
    if (tenant !== job.tenant) {
      throw forbidden(
        `The X-Tenant-ID header '${tenant}' is not the tenant of summary job ${id}: send the job's metadata.tenant.`,
      );
    }
    if (body.id !== id) {
      throw badRequest(`The body is job ${body.id}, not ${id}: send the job to its own address.`, [
        { path: 'body.id', message: `must be ${id}` },
      ]);
    }
    if (job.state === 'completed') {
      throw conflict(
        `Summary job ${id} was already sent to the physician: there is nothing to ${verb}.`,
      );
    }
    const leaseRuns = job.lease_expires_at !== null && new Date(job.lease_expires_at) > new Date();
    if (job.state !== 'assigned' || job.assignee_id !== user.id || !leaseRuns) {
      throw notHeld(id);
    }
    return job;
  }

  /** Saves the reviewer's version of the note, and (`send`) completes the job. */
  async function store(
    id: string,
    body: SummaryJob,
    tenant: string,
    user: RequestUser,
    send: boolean,
  ): Promise<{ job: JobRow; review: ReviewRow }> {
    return db.transaction().execute(async (trx) => {
      const held = await heldForChange(trx, id, body, tenant, user, send ? 'send' : 'save');
      const data = SummaryJobData.parse(held.payload);
      const review = await reviews.save(
        {
          jobId: id,
          tenant: held.tenant,
          conversationId: data.conversationId,
          document: body.document,
          sourceName: body.sourceName,
          sourceVersion: body.sourceVersion,
          userId: user.id,
        },
        send,
        trx,
      );
      if (!send) {
        // Each save renews the lease: a reviewer at work keeps the job.
        const renewed = await trx
          .updateTable('jobs')
          .set({
            lease_expires_at: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`,
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { job: renewed, review };
      }
      const note = {
        jobId: id,
        tenant: held.tenant,
        conversationId: data.conversationId,
        document: body.document,
        sourceName: body.sourceName,
        sourceVersion: body.sourceVersion,
        reviewedBy: user.email,
      };
      const completed = await jobs.complete(
        id,
        user.id,
        { type: SUMMARY_SENT_TYPE, data: note },
        trx,
      );
      if (!completed) {
        throw notHeld(id);
      }
      // The clinical note goes to the physician: the assistant hears of it with the job.
      await recordJobEvent(
        trx,
        'job.completed',
        completed,
        completedEventData(completed, { type: SUMMARY_SENT_TYPE, userId: user.id }),
      );
      return { job: completed, review };
    });
  }

  /** A save or a send, audited: its refusal, or its success with the size of the note. */
  function change(action: string, send: boolean, ...[id, body, tenant, user, origin]: ChangeArgs) {
    return audited(action, id, user, origin, async () => {
      const stored = await store(id, body, tenant, user, send);
      await audit(action, user, origin, {
        jobId: id,
        details: { sections: body.document.sections.length, codes: body.document.codes.length },
      });
      return stored;
    });
  }

  return {
    /**
     * The caller's job: the one they already hold (a reload loses nothing), else the oldest queued
     * job on a fresh lease (`FOR UPDATE SKIP LOCKED`: no two reviewers get the same one); jobs
     * whose lease ran out go back to the head of the queue first. Null when there is none.
     */
    async takeNext(user: RequestUser, origin: Origin): Promise<SummaryJob | null> {
      const taken = await db.transaction().execute(async (trx) => {
        const lease = sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`;
        const resumed = await trx
          .updateTable('jobs')
          .set({ lease_expires_at: lease, updated_at: sql<Date>`now()` })
          .where('queue', '=', SUMMARY_QUEUE)
          .where('state', '=', 'assigned')
          .where('assignee_id', '=', user.id)
          .where('lease_expires_at', '>', sql<Date>`now()`)
          .returningAll()
          .execute();
        const mine = resumed.sort((a, b) => +new Date(a.queued_at) - +new Date(b.queued_at))[0];
        if (mine) {
          return { job: mine, resumed: true };
        }
        const returned = await jobs.release(
          { expiredBefore: new Date(), queue: SUMMARY_QUEUE, maxAttempts: deps.maxAttempts },
          trx,
        );
        await recordReturnedJobs(trx, returned);
        const claimed = await jobs.claim(SUMMARY_QUEUE, user.id, leaseMs, trx);
        return claimed ? { job: claimed, resumed: false } : null;
      });
      if (!taken) {
        await audit('summary.job.next', user, origin, { details: { found: false } });
        return null;
      }
      const review = await reviews.find(taken.job.id);
      await audit('summary.job.take', user, origin, {
        jobId: taken.job.id,
        details: { resumed: taken.resumed, attempt: taken.job.attempts, tenant: taken.job.tenant },
      });
      return toSummaryJob(taken.job, review);
    },

    /** Saves the holder's edits of the note (`PATCH …/jobs/{id}`); the lease runs on. */
    async save(...args: ChangeArgs): Promise<SummaryJob> {
      const { job, review } = await change('summary.job.save', false, ...args);
      return toSummaryJob(job, review);
    },

    /** Sends the note to the physician: saved, the job completed, the assistant told. */
    async send(...args: ChangeArgs): Promise<SentSummaryJob> {
      const { job, review } = await change('summary.job.send', true, ...args);
      return {
        ...toSummaryJob(job, review),
        sentAt: iso(review.sent_at ?? new Date()),
        sentBy: args[3].email,
      };
    },

    /** A page of 10 of the job's conversation, oldest first: only for the job's holder. */
    async transcript(
      id: string,
      page: number,
      user: RequestUser,
      origin: Origin,
    ): Promise<MessagesPage> {
      return audited('summary.job.transcript', id, user, origin, async () => {
        const job = await jobs.findById(id);
        if (!job || job.queue !== SUMMARY_QUEUE) {
          throw notFound(`No summary job with the id '${id}'.`);
        }
        if (!(await jobs.findHeld(id, user.id))) {
          throw notHeld(id);
        }
        const { conversationId } = SummaryJobData.parse(job.payload);
        // The conversations area audits the messages it returns.
        return deps.conversations.messages(
          conversationId,
          { order: 'createdOn', s: MESSAGES_PAGE_SIZE, p: page },
          user,
          job.tenant,
          origin,
        );
      });
    },

    /** The latest note a reviewer sent for a conversation (the conversations area shows it). */
    async latestReviewed(tenant: string, conversationId: string): Promise<ReviewedSummary | null> {
      const row = await reviews.latestSent(tenant, conversationId);
      if (!row?.sent_at) {
        return null;
      }
      return {
        document: row.document as ReviewedSummary['document'],
        reviewedBy: row.sent_by_email,
        completedAt: iso(row.sent_at),
      };
    },
  };
}

export type SummaryService = ReturnType<typeof createSummaryService>;
