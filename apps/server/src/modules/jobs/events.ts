import { sql, type Transaction } from 'kysely';
import type { JobView, OutboxEventType } from '@loopdesk/contracts/integration.ts';
import type { SubmissionType } from '@loopdesk/contracts/realtime.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { JobRow } from './repository.ts';

/**
 * The job lifecycle's events for the assistant: every change of a job (completed, requeued, dead,
 * cancelled) and every reviewer action on a conversation is written to the transactional outbox
 * here, inside the transaction (or the statement) that makes the change. The pull feed and the
 * webhook worker (modules/integration) read what is written here; the realtime hub, the exception
 * desk and the integration API import these functions downward.
 */

/** The conversation events a reviewer's action produces (modules/exceptions). */
export type ConversationEventType = Extract<OutboxEventType, `conversation.${string}`>;

/** The job as the assistant reads it (`GET /api/v1/jobs/{id}` and every event's data.job). */
export function toJobView(job: JobRow): JobView {
  return {
    id: job.id,
    queue: job.queue as JobView['queue'],
    type: job.type,
    tenant: job.tenant,
    state: job.state,
    attempts: job.attempts,
    priority: job.priority,
    // Stored as the assistant sent it (an object, as POST /api/v1/jobs takes it).
    data: job.payload as JobView['data'],
    createdAt: new Date(job.created_at).toISOString(),
    completedAt: job.completed_at ? new Date(job.completed_at).toISOString() : null,
    // Written by the submission that completed it: `{ type, data }` (realtime/submission.ts).
    result: (job.result ?? null) as JobView['result'],
  };
}

/** The `job.completed` event's data: the submission and the job as the assistant reads it. */
export function completedEventData(
  job: JobRow,
  submission: { type: string; userId: string },
): Record<string, unknown> {
  return { submission: { type: submission.type, userId: submission.userId }, job: toJobView(job) };
}

/**
 * The outbox event a technician's submission produces (issue 3 item 6): built from the job as
 * completed, and written by the completing statement itself (dispatch-repository `complete`).
 */
export function completionEvent(
  job: JobRow,
  submission: { type: SubmissionType; userId: string },
): { type: 'job.completed'; data: Record<string, unknown> } {
  return { type: 'job.completed', data: completedEventData(job, submission) };
}

/** Queues the webhook delivery of an event the caller just wrote, in the same transaction. */
async function queueDelivery(trx: Transaction<DB>, eventId: string): Promise<void> {
  // A database trigger drops the delivery on the connections of a node without a webhook
  // (openDatabase's `webhookDeliveries`, migration 015): the pull feed still has the event.
  await trx
    .insertInto('webhook_deliveries')
    .values({ event_id: eventId, next_attempt_at: sql<Date>`now()` })
    .execute();
}

/**
 * Records a job event in the outbox, inside the caller's transaction, together with its pending
 * webhook delivery. Call it last in the transaction that changes the job (it serialises outbox
 * writers until commit), e.g. `await recordJobEvent(trx, 'job.cancelled', job, { reason })`.
 */
export async function recordJobEvent(
  trx: Transaction<DB>,
  type: OutboxEventType,
  job: JobRow,
  data: Record<string, unknown> = {},
) {
  const event = await trx
    .insertInto('outbox_events')
    .values({
      type,
      job_id: job.id,
      data: JSON.stringify({ ...data, job: toJobView(job) }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await queueDelivery(trx, event.id);
  return event;
}

/**
 * Jobs handed back to their queue (a socket closed, a lease ran out) or dead-lettered after too
 * many attempts are events for the assistant too: recorded in the transaction that returns them.
 */
export async function recordReturnedJobs(
  trx: Transaction<DB>,
  jobs: readonly JobRow[],
): Promise<void> {
  for (const job of jobs) {
    if (job.agreement_of) {
      // An agreement sample is not the assistant's job: it never hears of it (issue 16).
      continue;
    }
    await recordJobEvent(trx, job.state === 'dead' ? 'job.dead' : 'job.requeued', job);
  }
}

/**
 * Records a conversation event for the assistant in the outbox, with its pending webhook
 * delivery, inside the caller's transaction (as recordJobEvent does for jobs). `data` carries
 * the conversation as the assistant reads it (`conversation`) and what the action adds.
 */
export async function recordConversationEvent(
  trx: Transaction<DB>,
  type: ConversationEventType,
  conversationId: string,
  data: Record<string, unknown>,
): Promise<void> {
  const event = await trx
    .insertInto('outbox_events')
    .values({
      type,
      job_id: null,
      conversation_id: conversationId,
      data: JSON.stringify(data),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await queueDelivery(trx, event.id);
}

/** The events of direct messaging and push (issue 15): about a thread or a notification. */
export type CommunicationEventType = Extract<
  OutboxEventType,
  `message.${string}` | `thread.${string}` | `notification.${string}`
>;

/**
 * Records a direct-messaging or push event for the assistant in the outbox, with its pending
 * webhook delivery, inside the caller's transaction: the assistant delivers it to the patient.
 */
export async function recordCommunicationEvent(
  trx: Transaction<DB>,
  type: CommunicationEventType,
  data: Record<string, unknown>,
): Promise<string> {
  const event = await trx
    .insertInto('outbox_events')
    .values({ type, job_id: null, conversation_id: null, data: JSON.stringify(data) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await queueDelivery(trx, event.id);
  return event.id;
}
