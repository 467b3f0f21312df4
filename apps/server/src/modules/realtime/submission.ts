import { isDeepStrictEqual } from 'node:util';
import {
  SubmissionData,
  type CloudEvent,
  type SubmissionType,
} from '@loopdesk/contracts/realtime.ts';
import { SUBMISSION_PAYLOADS } from '@loopdesk/contracts/realtime-events.ts';
import { observeStep } from '../../platform/metrics.ts';
import { completionEvent } from '../jobs/events.ts';
import type { JobRow } from '../jobs/repository.ts';
import { announce, describeIssues, sendError, type Connection } from './connections.ts';
import type { Dispatch } from './dispatch.ts';
import type { HubContext } from './hub-context.ts';

/** The portal event of spec 1 §7, sent on the socket and also posted to the events call. */
export const PORTAL_EVENT_TYPE = 'dh.portal.hitl.event';

export const STALE_SUBMISSION_MESSAGE =
  'This submission is for a job you do not hold (already submitted, cancelled or returned to the queue): it changed nothing.';

/**
 * Refuses a submission that breaks the rules of the job it answers (the workbench's, issue 4):
 * the message goes back as an `error` event and the technician keeps the job. Null accepts.
 */
export type SubmissionCheck = (
  job: JobRow,
  type: SubmissionType,
  data: SubmissionData,
) => Promise<string | null> | string | null;

/**
 * Submission: a technician's answer completes the job they hold in one statement, with its outbox
 * event, and — when nobody else of this node waits for the same work — hands them their next job
 * in that same statement. A duplicate or stale submission changes nothing.
 */
export function createSubmission(ctx: HubContext, dispatch: Dispatch) {
  const { connections, policies } = ctx;
  const checks: SubmissionCheck[] = [];

  /** The first refusal of the registered checks, in the order they were added. */
  async function refusalOf(
    job: JobRow,
    type: SubmissionType,
    data: SubmissionData,
  ): Promise<string | null> {
    for (const check of checks) {
      const refusal = await check(job, type, data);
      if (refusal) {
        return refusal;
      }
    }
    return null;
  }

  /**
   * Whether `userId` already completed the job this portal event names with this very event: it
   * is sent on the socket and posted to `POST /internal/users/me/_events` (spec 1 §7), and the
   * copy that comes second changes nothing and is no error.
   */
  async function portalEventTaken(userId: string, event: CloudEvent): Promise<boolean> {
    const data = SubmissionData.safeParse(event.data);
    if (event.type !== PORTAL_EVENT_TYPE || !data.success) {
      return false;
    }
    const job = await ctx.jobs.findCompletedBy(data.data.jobId, userId);
    const result = job?.result as { type?: unknown; data?: unknown } | null | undefined;
    return result?.type === PORTAL_EVENT_TYPE && isDeepStrictEqual(result.data, data.data);
  }

  /**
   * Completes the held job with a submission; false when it changed nothing. `receivedAt`
   * (performance.now()) is when its frame arrived, for the step metrics.
   */
  async function submit(
    conn: Connection,
    event: CloudEvent,
    type: SubmissionType,
    receivedAt = performance.now(),
  ): Promise<boolean> {
    const parsed = SubmissionData.safeParse(event.data);
    if (!parsed.success) {
      sendError(
        conn,
        `The ${type} data needs the jobId of the job you hold: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'} ${i.message}`).join('; ')}.`,
        event,
      );
      return false;
    }
    const data = parsed.data;
    if (!conn.job || conn.job.id !== data.jobId) {
      if (await portalEventTaken(conn.userId, event)) {
        ctx.log.debug({ eventId: event.id }, 'portal event already taken over HTTP');
        return false;
      }
      sendError(conn, STALE_SUBMISSION_MESSAGE, event);
      return false;
    }
    // The payload of spec 1 §7 for its type; a bad one changes nothing and the job stays held.
    const payload = SUBMISSION_PAYLOADS[type].safeParse(event.data);
    if (!payload.success) {
      sendError(
        conn,
        `The ${type} data does not match its schema: ${describeIssues(payload.error.issues)}. It changed nothing: fix it and submit again.`,
        event,
      );
      return false;
    }
    const refusal = await refusalOf(conn.job, type, data);
    if (refusal) {
      sendError(conn, refusal, event);
      return false;
    }
    const completedAt = new Date();
    const result = { type, data };
    const completedJob: JobRow = {
      ...conn.job,
      state: 'completed',
      result,
      completed_at: completedAt,
      lease_expires_at: null,
    };
    const queues = policies.get(conn.source).queues;
    // A technician of this node who is waiting for the same work goes first: then the answer
    // only completes the job and the claim pass serves the longest-waiting one. (Another node's
    // waiting technicians are served by their own node's claim pass as each job is announced.)
    const othersWait = [...connections.values()].some(
      (c) =>
        c !== conn &&
        dispatch.canTake(c) &&
        policies.get(c.source).queues.some((q) => queues.includes(q)),
    );
    const takesNext = queues.length > 0 && !othersWait;
    observeStep('answer.check', receivedAt);
    const completing = performance.now();
    // Word of work counted from here may name a job the completing statement does not see.
    const since = dispatch.words();
    const completed = await dispatch.complete({
      jobId: data.jobId,
      userId: conn.userId,
      email: conn.email,
      ip: conn.ip,
      connectionId: conn.id,
      result,
      completedAt,
      // Every result goes to the assistant through the outbox, in the completing statement —
      // but an agreement sample's, which is kept for agreement only (issue 16).
      ...(conn.job.agreement_of
        ? {}
        : { event: completionEvent(completedJob, { type, userId: conn.userId }) }),
      // The technician's next job comes in the same statement (no waiting frame, no claim pass).
      ...(takesNext ? { next: { leaseMs: ctx.leaseMs } } : {}),
      queues,
    });
    observeStep('answer.complete', completing);
    const afterCompletion = performance.now();
    if (completed) {
      // A share of federated jobs goes, unseen, to a second technician for agreement.
      await dispatch.sample(completedJob, conn.userId);
    }
    if (!completed) {
      conn.job = null;
      if (!(await portalEventTaken(conn.userId, event))) {
        sendError(conn, STALE_SUBMISSION_MESSAGE, event);
      }
      await dispatch.setState(conn, 'waiting', null);
      announce(conn);
      void dispatch.dispatch();
      await policies.get(conn.source).afterTask?.(conn);
      return false;
    }
    if (completed.next) {
      if (conn.closed) {
        // Closed meanwhile (a server shutdown does not wait for the socket's frames).
        await dispatch.giveBack(conn.userId, completed.next);
        return true;
      }
      // Still activated: the next job is the only frame.
      dispatch.sendJob(conn, completed.next);
      observeStep('answer.after', afterCompletion);
      return true;
    }
    conn.state = 'waiting';
    conn.job = null;
    conn.waitingSince = Date.now();
    dispatch.technicianWaits(conn);
    announce(conn);
    // A claim pass only when there may be a queued job for them: at a steady rate every new job
    // is handed off in its insert, and the answer costs no claim statement.
    if (completed.queued || dispatch.wordSince(since, queues)) {
      void dispatch.dispatch();
    }
    await policies.get(conn.source).afterTask?.(conn);
    observeStep('answer.after', afterCompletion);
    return true;
  }

  return {
    submit,
    portalEventTaken,
    /** Adds a rule every submission must meet (run in the order added; the first refusal wins). */
    addCheck(check: SubmissionCheck): void {
      checks.push(check);
    },
  };
}

export type Submission = ReturnType<typeof createSubmission>;
