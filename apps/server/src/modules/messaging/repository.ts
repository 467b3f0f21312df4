import { sql, type Selectable } from 'kysely';
import type { Thread, ThreadMessage } from '@loopdesk/contracts/messaging.ts';
import type { Database } from '../../platform/db/database.ts';
import type { MessagingMessagesTable, MessagingThreadsTable } from '../../platform/db/schema.ts';
import type { Executor } from '../conversations/repository.ts';

export type ThreadRow = Selectable<MessagingThreadsTable>;
export type MessageRow = Selectable<MessagingMessagesTable>;

/** A thread with its patient's name and its unread counts, as the list reads it. */
export interface ThreadSummaryRow extends ThreadRow {
  given_name: string;
  family_name: string;
  unread_in: number;
  unread_out: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toThreadMessage(row: MessageRow): ThreadMessage {
  return {
    id: row.id,
    content: row.content,
    createdOn: iso(row.created_on),
    direction: row.direction,
    author: { id: row.author_id, name: row.author_name },
  };
}

export function toThread(row: ThreadSummaryRow, latest: readonly MessageRow[]): Thread {
  return {
    id: row.id,
    createdOn: iso(row.created_on),
    customer: { id: row.consumer_id, name: { given: row.given_name, family: row.family_name } },
    messages: latest.map(toThreadMessage),
    unreadIn: Number(row.unread_in),
    unreadOut: Number(row.unread_out),
  };
}

/** SQL over messaging_threads and messaging_messages. */
export function createMessagingRepository(db: Database) {
  const summaries = (trx: Executor) =>
    trx
      .selectFrom('messaging_threads as t')
      .innerJoin('consumers as c', 'c.id', 't.consumer_id')
      .selectAll('t')
      .select(['c.given_name', 'c.family_name'])
      .select(
        sql<number>`(select count(*)::int from messaging_messages m
          where m.thread_id = t.id and m.direction = 'IN' and m.read_on is null)`.as('unread_in'),
      )
      .select(
        sql<number>`(select count(*)::int from messaging_messages m
          where m.thread_id = t.id and m.direction = 'OUT' and m.read_on is null)`.as('unread_out'),
      );

  return {
    /** Open threads, the newest activity first; without those of restricted patients unless allowed. */
    openThreads(withRestricted: boolean, trx: Executor = db): Promise<ThreadSummaryRow[]> {
      let query = summaries(trx).where('t.archived_on', 'is', null);
      if (!withRestricted) {
        query = query.where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('conversations as r')
                .select('r.id')
                .whereRef('r.consumer_id', '=', 't.consumer_id')
                .where('r.restricted', '=', true),
            ),
          ),
        );
      }
      return query
        .orderBy(
          sql`coalesce((select max(m.created_on) from messaging_messages m where m.thread_id = t.id), t.created_on)`,
          'desc',
        )
        .limit(500)
        .execute();
    },

    thread(id: string, trx: Executor = db): Promise<ThreadSummaryRow | undefined> {
      return summaries(trx).where('t.id', '=', id).executeTakeFirst();
    },

    /** Locks a thread's row until the transaction ends: archive and send cannot cross. */
    async lockThread(id: string, trx: Executor): Promise<ThreadRow | undefined> {
      return trx
        .selectFrom('messaging_threads')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    openThreadOf(consumerId: string, trx: Executor = db): Promise<ThreadRow | undefined> {
      return trx
        .selectFrom('messaging_threads')
        .selectAll()
        .where('consumer_id', '=', consumerId)
        .where('archived_on', 'is', null)
        .executeTakeFirst();
    },

    /** Starts a thread; undefined when the patient already has an open one (the unique index). */
    async insertThread(
      values: { consumerId: string; createdBy: string; createdByEmail: string },
      trx: Executor,
    ): Promise<ThreadRow | undefined> {
      return trx
        .insertInto('messaging_threads')
        .values({
          consumer_id: values.consumerId,
          created_by: values.createdBy,
          created_by_email: values.createdByEmail,
        })
        .onConflict((oc) => oc.column('consumer_id').where('archived_on', 'is', null).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    archive(id: string, userId: string, trx: Executor): Promise<ThreadRow> {
      return trx
        .updateTable('messaging_threads')
        .set({ archived_on: sql<Date>`now()`, archived_by: userId })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    insertMessage(
      values: {
        threadId: string;
        direction: 'IN' | 'OUT';
        content: string;
        authorId: string;
        authorName: string;
        externalId?: string;
      },
      trx: Executor,
    ): Promise<MessageRow> {
      return trx
        .insertInto('messaging_messages')
        .values({
          thread_id: values.threadId,
          direction: values.direction,
          content: values.content,
          author_id: values.authorId,
          author_name: values.authorName,
          external_id: values.externalId ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    findByExternalId(
      threadId: string,
      externalId: string,
      trx: Executor = db,
    ): Promise<MessageRow | undefined> {
      return trx
        .selectFrom('messaging_messages')
        .selectAll()
        .where('thread_id', '=', threadId)
        .where('external_id', '=', externalId)
        .executeTakeFirst();
    },

    /** Every message of a thread, oldest first. */
    messages(threadId: string, trx: Executor = db): Promise<MessageRow[]> {
      return trx
        .selectFrom('messaging_messages')
        .selectAll()
        .where('thread_id', '=', threadId)
        .orderBy('created_on')
        .orderBy('id')
        .execute();
    },

    /** The latest message of each thread. */
    async latest(
      threadIds: readonly string[],
      trx: Executor = db,
    ): Promise<Map<string, MessageRow>> {
      if (threadIds.length === 0) {
        return new Map();
      }
      const rows = await trx
        .selectFrom('messaging_messages')
        .selectAll()
        .distinctOn('thread_id')
        .where('thread_id', 'in', threadIds)
        .orderBy('thread_id')
        .orderBy('created_on', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return new Map(rows.map((row) => [row.thread_id, row]));
    },

    /** Marks the thread's messages of one direction read; returns how many were unread. */
    async markRead(threadId: string, direction: 'IN' | 'OUT', trx: Executor): Promise<number> {
      const result = await trx
        .updateTable('messaging_messages')
        .set({ read_on: sql<Date>`now()` })
        .where('thread_id', '=', threadId)
        .where('direction', '=', direction)
        .where('read_on', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type MessagingRepository = ReturnType<typeof createMessagingRepository>;
