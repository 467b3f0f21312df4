import {
  MESSAGING_MESSAGES,
  type ArchivedThread,
  type MessageSentData,
  type SendThreadMessageBody,
  type StartedThread,
  type StartThreadBody,
  type Thread,
  type ThreadMessage,
} from '@loopdesk/contracts/messaging.ts';
import {
  EXCEPTION_ERRORS,
  RESTRICTED_EXCEPTIONS_PRIVILEGE,
} from '@loopdesk/contracts/exceptions.ts';
import { hasPrivilege, type Role } from '@loopdesk/contracts/privileges.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { createConversationsRepository, type Executor } from '../conversations/repository.ts';
import type { Origin } from '../conversations/service.ts';
import { recordCommunicationEvent } from '../jobs/events.ts';
import { audited as withRefusalAudit } from './audited.ts';
import {
  createMessagingRepository,
  toThread,
  toThreadMessage,
  type ThreadRow,
} from './repository.ts';

/** The signed-in member of staff. */
export interface Staff {
  readonly id: string;
  readonly email: string;
  readonly roles: readonly Role[];
}

/** The `message.sent` event's data: what the assistant delivers to the patient. */
export function messageSentData(thread: ThreadRow, message: ThreadMessage): MessageSentData {
  return { thread: { id: thread.id, customerId: thread.consumer_id }, message };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ARCHIVED =
  'This thread is archived: nothing was changed. Start a new thread for the customer.';

/**
 * Staff's side of direct messaging (spec 3 §2, §4, §7): start a thread for a patient, read the
 * open threads and a thread's messages, mark them read, send, archive. Every read and write is in
 * the audit trail, refusals included; every message for the patient is an outbox event.
 */
export function createThreadsService(db: Database) {
  const repo = createMessagingRepository(db);
  const consumers = createConversationsRepository(db);

  const audit = (
    trx: Executor,
    staff: Staff,
    entry: Omit<AuditEntry, 'actorId' | 'actorEmail' | 'resourceType'>,
    origin: Origin,
  ) =>
    recordAudit(
      trx,
      { ...entry, resourceType: 'messaging_thread', actorId: staff.id, actorEmail: staff.email },
      origin,
    );

  const audited = <T>(
    staff: Staff,
    action: string,
    resourceId: string,
    origin: Origin,
    run: () => Promise<T>,
  ) =>
    withRefusalAudit(
      db,
      { actor: staff, action, resourceType: 'messaging_thread', resourceId },
      origin,
      run,
    );

  const mayReadRestricted = (staff: Staff) =>
    hasPrivilege(staff.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE);

  /** The thread, if this member of staff may see it; inside a transaction, locked. */
  async function visibleThread(id: string, staff: Staff, trx?: Executor): Promise<ThreadRow> {
    const thread = UUID.test(id)
      ? await (trx ? repo.lockThread(id, trx) : repo.thread(id))
      : undefined;
    if (!thread) {
      throw notFound(`No messaging thread with the id '${id}': pick one of the open threads.`);
    }
    if (
      !mayReadRestricted(staff) &&
      (await consumers.hasRestrictedConversation(thread.consumer_id, trx ?? db))
    ) {
      throw forbidden(EXCEPTION_ERRORS.restrictedPatient);
    }
    return thread;
  }

  /** The open thread to write to, locked until the transaction ends. */
  async function openThread(id: string, staff: Staff, trx: Executor): Promise<ThreadRow> {
    const thread = await visibleThread(id, staff, trx);
    if (thread.archived_on) {
      throw conflict(ARCHIVED);
    }
    return thread;
  }

  /** A staff message: stored, the patient's earlier messages read, the outbox event written. */
  async function sendOut(
    thread: ThreadRow,
    content: string,
    staff: Staff,
    trx: Parameters<typeof recordCommunicationEvent>[0],
  ): Promise<ThreadMessage> {
    const row = await repo.insertMessage(
      {
        threadId: thread.id,
        direction: 'OUT',
        content,
        authorId: staff.id,
        authorName: staff.email,
      },
      trx,
    );
    // Whoever answers has read what the patient wrote before.
    await repo.markRead(thread.id, 'IN', trx);
    const message = toThreadMessage(row);
    await recordCommunicationEvent(trx, 'message.sent', { ...messageSentData(thread, message) });
    return message;
  }

  /** The customer with this email, one and only one, whom this member of staff may message. */
  async function customerByEmail(email: string, staff: Staff): Promise<string> {
    const matches = await db
      .selectFrom('consumers')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .limit(2)
      .execute();
    const [match, second] = matches;
    if (!match) {
      throw notFound(
        `No customer with the email ${email}: check the address (the assistant registers the patients it talks to).`,
      );
    }
    if (second) {
      throw badRequest(
        `Several customers share the email ${email}: a thread needs one customer, so nothing was started.`,
        [{ path: 'body.customer.value', message: 'names more than one customer' }],
      );
    }
    if (!mayReadRestricted(staff) && (await consumers.hasRestrictedConversation(match.id))) {
      throw forbidden(EXCEPTION_ERRORS.restrictedPatient);
    }
    return match.id;
  }

  return {
    /** `GET /internal/messaging/groups`: the open threads with their latest message. */
    async openThreads(staff: Staff, origin: Origin): Promise<Thread[]> {
      const rows = await repo.openThreads(mayReadRestricted(staff));
      const latest = await repo.latest(rows.map((row) => row.id));
      await audit(
        db,
        staff,
        {
          action: 'messaging.threads.read',
          outcome: 'success',
          statusCode: 200,
          details: { threads: rows.map((row) => row.id) },
        },
        origin,
      );
      return rows.map((row) => {
        const last = latest.get(row.id);
        return toThread(row, last ? [last] : []);
      });
    },

    /** `POST /internal/messaging/groups/_upsert`: a new thread for the customer with this email. */
    start(body: StartThreadBody, staff: Staff, origin: Origin): Promise<StartedThread> {
      const email = body.customer.value.trim().toLowerCase();
      return audited(staff, 'messaging.thread.start', email, origin, async () => {
        const customerId = await customerByEmail(email, staff);
        const started = await db.transaction().execute(async (trx) => {
          const thread = await repo.insertThread(
            { consumerId: customerId, createdBy: staff.id, createdByEmail: staff.email },
            trx,
          );
          if (!thread) {
            return undefined;
          }
          const message = await sendOut(thread, body.content, staff, trx);
          await audit(
            trx,
            staff,
            {
              action: 'messaging.thread.start',
              outcome: 'success',
              resourceId: thread.id,
              statusCode: 201,
              details: { customerId, messageId: message.id },
            },
            origin,
          );
          return { id: thread.id, customerId, messageId: message.id };
        });
        if (!started) {
          throw conflict(MESSAGING_MESSAGES.openThreadExists);
        }
        return started;
      });
    },

    /** `GET /internal/messaging/groups/{id}/messages`: every message, oldest first. */
    messages(id: string, staff: Staff, origin: Origin): Promise<ThreadMessage[]> {
      return audited(staff, 'messaging.messages.read', id, origin, async () => {
        const thread = await visibleThread(id, staff);
        const rows = await repo.messages(thread.id);
        await audit(
          db,
          staff,
          {
            action: 'messaging.messages.read',
            outcome: 'success',
            resourceId: thread.id,
            statusCode: 200,
            details: { customerId: thread.consumer_id, messages: rows.length },
          },
          origin,
        );
        return rows.map(toThreadMessage);
      });
    },

    /** `PATCH …/messages/_mark_as_read`: the customer's messages are read; the thread as it is now. */
    markRead(id: string, staff: Staff, origin: Origin): Promise<Thread> {
      return audited(staff, 'messaging.messages.mark_read', id, origin, () =>
        db.transaction().execute(async (trx) => {
          const thread = await openThread(id, staff, trx);
          const marked = await repo.markRead(thread.id, 'IN', trx);
          await audit(
            trx,
            staff,
            {
              action: 'messaging.messages.mark_read',
              outcome: 'success',
              resourceId: thread.id,
              statusCode: 200,
              details: { customerId: thread.consumer_id, marked },
            },
            origin,
          );
          const summary = await repo.thread(thread.id, trx);
          const last = (await repo.latest([thread.id], trx)).get(thread.id);
          if (!summary) {
            throw new Error(`thread ${thread.id} vanished inside its transaction`);
          }
          return toThread(summary, last ? [last] : []);
        }),
      );
    },

    /** `POST /internal/messaging/groups/{id}/messages`: a staff message for the customer. */
    send(id: string, body: SendThreadMessageBody, staff: Staff, origin: Origin) {
      return audited(staff, 'messaging.message.send', id, origin, () =>
        db.transaction().execute(async (trx): Promise<ThreadMessage> => {
          const thread = await openThread(id, staff, trx);
          if (body.customer.value !== thread.consumer_id) {
            throw badRequest(
              `This thread is with the customer ${thread.consumer_id}, not ${body.customer.value}: nothing was sent.`,
              [{ path: 'body.customer.value', message: 'is not the customer of this thread' }],
            );
          }
          const message = await sendOut(thread, body.content.trim(), staff, trx);
          await audit(
            trx,
            staff,
            {
              action: 'messaging.message.send',
              outcome: 'success',
              resourceId: thread.id,
              statusCode: 201,
              details: { customerId: thread.consumer_id, messageId: message.id },
            },
            origin,
          );
          return message;
        }),
      );
    },

    /** `DELETE /internal/messaging/groups/{id}`: the thread leaves the open list. */
    archive(id: string, staff: Staff, origin: Origin): Promise<ArchivedThread> {
      return audited(staff, 'messaging.thread.archive', id, origin, () =>
        db.transaction().execute(async (trx) => {
          const thread = await openThread(id, staff, trx);
          const archived = await repo.archive(thread.id, staff.id, trx);
          const archivedOn = new Date(archived.archived_on ?? Date.now()).toISOString();
          await recordCommunicationEvent(trx, 'thread.archived', {
            thread: { id: thread.id, customerId: thread.consumer_id },
            archivedOn,
          });
          await audit(
            trx,
            staff,
            {
              action: 'messaging.thread.archive',
              outcome: 'success',
              resourceId: thread.id,
              statusCode: 200,
              details: { customerId: thread.consumer_id },
            },
            origin,
          );
          return { id: thread.id, archivedOn };
        }),
      );
    },
  };
}

export type ThreadsService = ReturnType<typeof createThreadsService>;
