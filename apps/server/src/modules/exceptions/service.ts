import type { Transaction, Updateable } from 'kysely';
import {
  EXCEPTION_QUEUES,
  MANUAL_REPLY_TYPE,
  conversationNotFound,
  type ConversationMessage,
  type EndType,
} from '@loopdesk/contracts/conversations.ts';
import { EXCEPTION_ERRORS, type ManualResponse } from '@loopdesk/contracts/exceptions.ts';
import type { Database } from '../../platform/db/database.ts';
import type { ConversationsTable, DB } from '../../platform/db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { JobRow } from '../jobs/repository.ts';
import {
  recordConversationEvent,
  recordJobEvent,
  type ConversationEventType,
} from '../jobs/events.ts';
import {
  BOT,
  QUEUE,
  createConversationsRepository,
  isReviewer,
  toConversationView,
  toMessage,
  type ConversationRow,
} from '../conversations/repository.ts';
import { createExceptionsRepository } from './repository.ts';

/** A reviewer acting at the desk. */
export interface Reviewer {
  readonly id: string;
  readonly email: string;
}

export interface Origin {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

const exceptionQueues: readonly string[] = EXCEPTION_QUEUES;

/** Whether a job belongs to the exceptions queues, whose tasks follow their conversation. */
export const isExceptionQueue = (queue: string) => exceptionQueues.includes(queue);

/** The conversation a task belongs to (its data.conversationId), if any. */
export function taskConversation(job: Pick<JobRow, 'payload'>): string | null {
  const payload = job.payload as { conversationId?: unknown } | null;
  return typeof payload?.conversationId === 'string' ? payload.conversationId : null;
}

/**
 * The reviewer's side of a held conversation: manual replies, handback and end. Each is one
 * transaction that locks the conversation's row and checks that the reviewer holds it, so a
 * reply from anyone else (the bot, another reviewer, a reviewer who lost it) changes nothing.
 */
export function createExceptionsService(db: Database) {
  const conversations = createConversationsRepository(db);
  const repo = createExceptionsRepository(db);

  /** Locks a conversation the reviewer must hold; refuses with what went wrong. */
  async function held(
    trx: Transaction<DB>,
    conversationId: string,
    reviewer: Reviewer,
  ): Promise<ConversationRow> {
    const conversation = await conversations.lockConversation(conversationId, trx);
    if (!conversation) {
      throw notFound(conversationNotFound(`no conversation with the id '${conversationId}'`));
    }
    if (conversation.status === 'ended') {
      throw conflict(EXCEPTION_ERRORS.ended);
    }
    if (conversation.holder !== reviewer.id) {
      throw conflict(EXCEPTION_ERRORS.notHolder);
    }
    return conversation;
  }

  async function displayName(trx: Transaction<DB>, reviewer: Reviewer): Promise<string> {
    return (await repo.reviewerName(reviewer.id, trx)) ?? reviewer.email;
  }

  /** Cancels the conversation's open tasks, each an event for the assistant. */
  async function cancelTasks(trx: Transaction<DB>, conversationId: string, reason: string) {
    const cancelled = await repo.cancelTasks(conversationId, trx);
    for (const job of cancelled) {
      await recordJobEvent(trx, 'job.cancelled', job, { reason });
    }
    return cancelled;
  }

  /**
   * The conversation is the assistant's again (a handback or an end): out of the queue, its open
   * tasks cancelled, off the reviewer's screen.
   */
  async function giveBack(
    trx: Transaction<DB>,
    conversationId: string,
    reviewer: Reviewer,
    change: Updateable<ConversationsTable>,
    reason: string,
  ): Promise<ConversationRow> {
    const row = await repo.toBot(conversationId, change, trx);
    await cancelTasks(trx, conversationId, reason);
    await repo.clearCurrent(reviewer.id, conversationId, trx);
    return row;
  }

  return {
    /**
     * A manual reply (spec 1 §3 Manual response, reply type MANUAL): stored in the transcript
     * and sent to the assistant, which delivers it to the patient.
     */
    async respond(
      reviewer: Reviewer,
      response: ManualResponse & { conversationId: string },
      origin: Origin,
    ): Promise<{ conversation: ConversationRow; message: ConversationMessage }> {
      const text = response.message.trim();
      if (text.length === 0) {
        throw badRequest(EXCEPTION_ERRORS.emptyReply, [
          { path: 'message', message: 'must not be empty' },
        ]);
      }
      const result = await db.transaction().execute(async (trx) => {
        const conversation = await held(trx, response.conversationId, reviewer);
        if (
          response.recipientId !== undefined &&
          response.recipientId !== conversation.consumer_id
        ) {
          throw badRequest(
            `recipientId must be the patient of this conversation (${conversation.consumer_id}): nothing was sent.`,
            [{ path: 'recipientId', message: 'is not the patient of this conversation' }],
          );
        }
        const replyTo = response.replyTo || null;
        if (replyTo && !(await conversations.findMessage(conversation.id, replyTo, trx))) {
          throw badRequest(
            `replyTo '${replyTo}' is not a message of this conversation: nothing was sent.`,
            [{ path: 'replyTo', message: 'is not a message of this conversation' }],
          );
        }
        const row = await conversations.appendLocked(
          conversation,
          {
            id: `manual-${crypto.randomUUID()}`,
            direction: 'OUT',
            content: text,
            author: { kind: 'reviewer', id: reviewer.id, name: await displayName(trx, reviewer) },
            replyTo,
            replyType: MANUAL_REPLY_TYPE,
          },
          trx,
        );
        const message = toMessage(row);
        await recordAction(trx, {
          event: 'conversation.reply',
          action: 'conversation.reply',
          conversation,
          reviewer,
          origin,
          statusCode: 201,
          data: {
            message,
            recipientId: conversation.consumer_id,
            replyTo,
            replyType: MANUAL_REPLY_TYPE,
            ...(response.slots === undefined ? {} : { slots: response.slots }),
            ...(response.flags === undefined ? {} : { flags: response.flags }),
          },
          details: { message: message.id },
        });
        return { conversation, message };
      });
      return result;
    },

    /** Gives the conversation back to the assistant, which resumes it. */
    async handBack(
      reviewer: Reviewer,
      conversationId: string,
      origin: Origin,
    ): Promise<ConversationRow> {
      return db.transaction().execute(async (trx) => {
        await held(trx, conversationId, reviewer);
        const row = await giveBack(trx, conversationId, reviewer, { read: false }, 'handed back');
        await recordAction(trx, {
          event: 'conversation.handedback',
          action: 'conversation.handback',
          conversation: row,
          reviewer,
          origin,
          statusCode: 200,
        });
        return row;
      });
    },

    /**
     * Ends the encounter: END (after scheduling an appointment) or TERMINATE. The assistant is
     * told, with the appointment when there is one, and closes the conversation with the patient.
     */
    async end(
      reviewer: Reviewer,
      request: { conversationId: string; type: EndType; appointmentId?: string | undefined },
      origin: Origin,
    ): Promise<ConversationRow> {
      return db.transaction().execute(async (trx) => {
        const conversation = await held(trx, request.conversationId, reviewer);
        let appointment: Record<string, unknown> | null = null;
        if (request.appointmentId !== undefined) {
          let row = await repo.lockAppointment(request.appointmentId, trx);
          // One the reviewer booked by the patient's email alone (spec 3 §5 allows either) is
          // this encounter's: it is linked to the conversation as the end is recorded.
          if (row && row.conversation_id === null && row.created_by === reviewer.id) {
            row = await repo.linkAppointment(
              row.id,
              { id: conversation.id, consumerId: conversation.consumer_id },
              trx,
            );
          }
          if (!row || row.conversation_id !== request.conversationId) {
            throw badRequest(
              `No appointment ${request.appointmentId} was scheduled for this conversation: schedule it first, or end without it.`,
              [{ path: 'appointmentId', message: 'is not an appointment of this conversation' }],
            );
          }
          appointment = {
            id: row.id,
            type: row.type,
            fromDateTime: row.from_date_time,
            timezone: row.timezone,
            duration: row.duration,
            startsAt: new Date(row.starts_at).toISOString(),
            staff: {
              id: row.staff_id,
              firstName: row.staff_first_name,
              lastName: row.staff_last_name,
            },
            consumerNote: row.consumer_note,
          };
        }
        const row = await giveBack(
          trx,
          request.conversationId,
          reviewer,
          { status: 'ended', end_type: request.type, ended_at: new Date(), ended_by: reviewer.id },
          `ended (${request.type})`,
        );
        await recordAction(trx, {
          event: 'conversation.ended',
          action: 'conversation.end',
          conversation: row,
          reviewer,
          origin,
          statusCode: 200,
          data: { endType: request.type, appointment },
          details: { type: request.type, appointmentId: request.appointmentId ?? null },
        });
        return row;
      });
    },

    /** Whether the reviewer holds this open conversation now. */
    async holds(reviewerId: string, conversationId: string): Promise<boolean> {
      const row = await conversations.findConversation(conversationId);
      return row?.holder === reviewerId && row.status === 'open';
    },

    /**
     * A task the assistant sends to the exceptions queues belongs to a conversation humans have:
     * checked in the job's own transaction, and given at once to the reviewer holding it.
     */
    async attachTask(trx: Transaction<DB>, job: JobRow): Promise<JobRow> {
      if (!isExceptionQueue(job.queue)) {
        return job;
      }
      const conversationId = taskConversation(job);
      if (conversationId === null) {
        throw badRequest(
          'A job of the exceptions queues belongs to a conversation handed to humans: send its id as data.conversationId.',
          [{ path: 'body.data.conversationId', message: 'is required for the exceptions queues' }],
        );
      }
      const conversation = await conversations.lockConversation(conversationId, trx);
      if (!conversation) {
        throw notFound(
          `No conversation with the id '${conversationId}': register it with PUT /api/v1/conversations/{id} and hand it over first.`,
        );
      }
      if (conversation.tenant !== job.tenant) {
        throw badRequest(
          `The conversation ${conversationId} belongs to the tenant ${conversation.tenant}: send its tasks with that tenant.`,
          [{ path: 'body.tenant', message: `must be ${conversation.tenant}` }],
        );
      }
      if (conversation.status === 'ended') {
        throw conflict(`The conversation ${conversationId} ended: it takes no more tasks.`);
      }
      if (conversation.holder === BOT) {
        throw conflict(
          `The conversation ${conversationId} is with the assistant: hand it over (POST /api/v1/conversations/{id}/handover) before sending it tasks.`,
        );
      }
      if (conversation.queue !== job.queue) {
        throw badRequest(
          `The conversation ${conversationId} is in the ${conversation.queue ?? ''} queue: send its tasks to that queue.`,
          [{ path: 'body.queue', message: `must be ${conversation.queue ?? ''}` }],
        );
      }
      if (conversation.holder === QUEUE || !isReviewer(conversation.holder)) {
        return job;
      }
      return repo.assignTask(job.id, conversation.holder, trx);
    },
  };
}

/** The assistant's event of a reviewer's action and its audit entry, in the action's transaction. */
async function recordAction(
  trx: Transaction<DB>,
  entry: {
    event: ConversationEventType;
    action: string;
    conversation: ConversationRow;
    reviewer: Reviewer;
    origin: Origin;
    statusCode: number;
    data?: Record<string, unknown>;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  const { reviewer } = entry;
  await recordConversationEvent(trx, entry.event, entry.conversation.id, {
    ...entry.data,
    reviewer: { id: reviewer.id, email: reviewer.email },
    conversation: toConversationView(entry.conversation),
  });
  await recordAudit(
    trx,
    {
      action: entry.action,
      outcome: 'success',
      actorId: reviewer.id,
      actorEmail: reviewer.email,
      resourceType: 'conversation',
      resourceId: entry.conversation.id,
      statusCode: entry.statusCode,
      ...(entry.details ? { details: entry.details } : {}),
    },
    entry.origin,
  );
}

export type ExceptionsService = ReturnType<typeof createExceptionsService>;
