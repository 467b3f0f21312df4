import { sql, type Selectable, type Transaction, type Updateable } from 'kysely';
import { EXCEPTION_QUEUES, type ExceptionQueue } from '@loopdesk/contracts/conversations.ts';
import type { ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import type { Database } from '../../platform/db/database.ts';
import type { AppointmentsTable, ConversationsTable, DB } from '../../platform/db/schema.ts';
import type { JobRow } from '../jobs/repository.ts';
import { BOT, QUEUE, type ConversationRow, type Executor } from '../conversations/repository.ts';

/** A reviewer whose exceptions session is on, with how many conversations they hold. */
export interface Reviewer {
  userId: string;
  roles: string[];
  held: number;
  idleSince: Date | null;
}

/** Cluster-wide lock of the allocation: capacities are counted and filled by one node at once. */
const ALLOCATION_LOCK = sql`select pg_advisory_xact_lock(hashtext('loopdesk.exceptions.allocation'))`;

const exceptionQueues = [...EXCEPTION_QUEUES];

/** SQL of the exception desk: allocation, reviewers' places, and the tasks of conversations. */
export function createExceptionsRepository(db: Database) {
  return {
    async lockAllocation(trx: Transaction<DB>): Promise<void> {
      await ALLOCATION_LOCK.execute(trx);
    },

    /**
     * Reviewers who may take conversations now: a live exceptions socket (seen within staleMs)
     * that is not paused, anywhere in the cluster.
     */
    async activeReviewers(staleMs: number, trx: Executor = db): Promise<Reviewer[]> {
      const stale = new Date(Date.now() - staleMs);
      const result = await sql<{
        user_id: string;
        roles: string[];
        held: number;
        idle_since: Date | null;
      }>`
        select s.user_id, u.roles,
          -- A reviewer who has held nothing yet has waited since their session turned on.
          coalesce(r.idle_since, s.waiting_since) as idle_since,
          (select count(*)::int from conversations c
            where c.holder = s.user_id::text and c.status = 'open') as held
        from technician_sessions s
        join users u on u.id = s.user_id
        left join exception_reviewers r on r.user_id = s.user_id
        where s.source = 'exceptions' and s.state <> 'paused'
          and s.connection_id is not null and s.last_seen_at >= ${stale}`.execute(trx);
      return result.rows.map((row) => ({
        userId: row.user_id,
        roles: row.roles,
        held: row.held,
        idleSince: row.idle_since,
      }));
    },

    /** Conversations waiting for a reviewer, first in first out, locked for the allocation. */
    waiting(limit: number, trx: Transaction<DB>): Promise<ConversationRow[]> {
      return trx
        .selectFrom('conversations')
        .selectAll()
        .where('holder', '=', QUEUE)
        .where('status', '=', 'open')
        .orderBy('queued_at')
        .orderBy('queue_seq')
        .limit(limit)
        .forUpdate()
        .execute();
    },

    /** Gives waiting conversations to a reviewer, with their tasks. */
    async allocate(
      conversationIds: readonly string[],
      userId: string,
      trx: Transaction<DB>,
    ): Promise<void> {
      await trx
        .updateTable('conversations')
        .set({ holder: userId, allocated_at: new Date(), read: false, updated_at: new Date() })
        .where('id', 'in', [...conversationIds])
        .where('holder', '=', QUEUE)
        .execute();
      await sql`
        update jobs set state = 'assigned', assignee_id = ${userId}, attempts = attempts + 1,
          lease_expires_at = null, updated_at = now()
        where queue in (${sql.join(exceptionQueues)}) and state = 'queued'
          and payload->>'conversationId' in (${sql.join([...conversationIds])})`.execute(trx);
      await sql`
        insert into exception_reviewers (user_id, idle_since, updated_at)
        values (${userId}, now(), now())
        on conflict (user_id) do update set idle_since = now(), updated_at = now()`.execute(trx);
    },

    /**
     * Takes a reviewer's open conversations back to the queue: they keep their place (their
     * queued_at), so they go first to the next reviewer. Their tasks wait with them.
     */
    async returnHeld(userId: string, trx: Transaction<DB>): Promise<ConversationRow[]> {
      const rows = await trx
        .updateTable('conversations')
        .set({ holder: QUEUE, allocated_at: null, read: false, updated_at: new Date() })
        .where('holder', '=', userId)
        .where('status', '=', 'open')
        .returningAll()
        .execute();
      if (rows.length > 0) {
        await sql`
          update jobs set state = 'queued', assignee_id = null, lease_expires_at = null, updated_at = now()
          where queue in (${sql.join(exceptionQueues)}) and state = 'assigned'
            and assignee_id = ${userId}
            and payload->>'conversationId' in (${sql.join(rows.map((r) => r.id))})`.execute(trx);
      }
      await trx
        .updateTable('exception_reviewers')
        .set({ current_conversation_id: null, updated_at: new Date() })
        .where('user_id', '=', userId)
        .execute();
      return rows;
    },

    /** Holders of open conversations whose exceptions session is off or gone (a dead node). */
    async strandedHolders(staleMs: number, trx: Executor = db): Promise<string[]> {
      const stale = new Date(Date.now() - staleMs);
      const result = await sql<{ holder: string }>`
        select distinct c.holder from conversations c
        where c.status = 'open' and c.holder not in ('bot', 'queue')
          and not exists (
            select 1 from technician_sessions s
            where s.user_id::text = c.holder and s.source = 'exceptions' and s.state <> 'paused'
              and s.connection_id is not null and s.last_seen_at >= ${stale})`.execute(trx);
      return result.rows.map((r) => r.holder);
    },

    /** The conversations a reviewer holds, oldest allocation first, as the avatar queue shows them. */
    async held(
      userId: string,
      trx: Executor = db,
      only?: readonly string[],
    ): Promise<ExceptionConversation[]> {
      if (only && only.length === 0) {
        return [];
      }
      let query = trx
        .selectFrom('conversations as c')
        .innerJoin('consumers as p', 'p.id', 'c.consumer_id')
        .select([
          'c.id',
          'c.consumer_id',
          'c.bot_conversation_id',
          'c.tenant',
          'c.read',
          'c.queue',
          'c.handover_reason',
          'c.allocated_at',
          'c.queued_at',
          'p.given_name',
          'p.family_name',
        ])
        .where('c.holder', '=', userId)
        .where('c.status', '=', 'open');
      if (only) {
        query = query.where('c.id', 'in', [...only]);
      }
      const rows = await query.orderBy('c.allocated_at').orderBy('c.queue_seq').execute();
      return rows.map((row) => ({
        userId: row.consumer_id,
        conversationId: row.id,
        botConversationId: row.bot_conversation_id,
        tenant: row.tenant,
        read: row.read,
        name: { given: row.given_name, family: row.family_name },
        queue: row.queue ?? 'exceptions',
        reason: row.handover_reason,
        allocatedAt: new Date(row.allocated_at ?? 0).toISOString(),
        ...(row.queued_at ? { waitingSince: new Date(row.queued_at).toISOString() } : {}),
      }));
    },

    async current(userId: string, trx: Executor = db): Promise<string | null> {
      const row = await trx
        .selectFrom('exception_reviewers')
        .select('current_conversation_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.current_conversation_id ?? null;
    },

    /** The reviewer resumed: they wait from now on, with nothing on screen. */
    async resumed(userId: string, trx: Executor = db): Promise<void> {
      await sql`
        insert into exception_reviewers (user_id, current_conversation_id, idle_since, updated_at)
        values (${userId}, null, now(), now())
        on conflict (user_id) do update set current_conversation_id = null, idle_since = now(),
          updated_at = now()`.execute(trx);
    },

    async setCurrent(userId: string, conversationId: string | null, trx: Executor = db) {
      await sql`
        insert into exception_reviewers (user_id, current_conversation_id, updated_at)
        values (${userId}, ${conversationId}, now())
        on conflict (user_id) do update set current_conversation_id = excluded.current_conversation_id,
          updated_at = now()`.execute(trx);
      if (conversationId) {
        await trx
          .updateTable('conversations')
          .set({ read: true })
          .where('id', '=', conversationId)
          .where('holder', '=', userId)
          .execute();
      }
    },

    /** The oldest task of a conversation that its holder has been given (exception.job). */
    nextTask(
      userId: string,
      conversationId: string,
      trx: Executor = db,
    ): Promise<JobRow | undefined> {
      return trx
        .selectFrom('jobs')
        .selectAll()
        .where('queue', 'in', exceptionQueues)
        .where('state', '=', 'assigned')
        .where('assignee_id', '=', userId)
        .where(sql<string>`payload->>'conversationId'`, '=', conversationId)
        .orderBy('priority', 'desc')
        .orderBy('queued_at')
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
    },

    /** Cancels the open tasks of a conversation that leaves humans (handback or end). */
    async cancelTasks(conversationId: string, trx: Transaction<DB>): Promise<JobRow[]> {
      const result = await sql<JobRow>`
        update jobs set state = 'cancelled', assignee_id = null, lease_expires_at = null, updated_at = now()
        where queue in (${sql.join(exceptionQueues)}) and state in ('queued', 'assigned')
          and payload->>'conversationId' = ${conversationId}
        returning *`.execute(trx);
      return result.rows;
    },

    /** The name a reviewer's replies carry: their display name, else their email. */
    async reviewerName(reviewerId: string, trx: Executor = db): Promise<string | null> {
      const user = await trx
        .selectFrom('users')
        .select(['display_name', 'email'])
        .where('id', '=', reviewerId)
        .executeTakeFirst();
      return user?.display_name ?? user?.email ?? null;
    },

    /**
     * The conversation is the assistant's again (a handback or an end): out of the queue, with
     * what else changes (`change`).
     */
    toBot(
      conversationId: string,
      change: Updateable<ConversationsTable>,
      trx: Transaction<DB>,
    ): Promise<ConversationRow> {
      return trx
        .updateTable('conversations')
        .set({
          ...change,
          holder: BOT,
          queue: null,
          queued_at: null,
          queue_seq: null,
          allocated_at: null,
          updated_at: new Date(),
        })
        .where('id', '=', conversationId)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Takes the conversation off the reviewer's screen if it is the one there. */
    async clearCurrent(userId: string, conversationId: string, trx: Transaction<DB>) {
      await trx
        .updateTable('exception_reviewers')
        .set({ current_conversation_id: null, updated_at: new Date() })
        .where('user_id', '=', userId)
        .where('current_conversation_id', '=', conversationId)
        .execute();
    },

    /** An appointment, locked for the end of the encounter that names it. */
    lockAppointment(id: string, trx: Transaction<DB>): Promise<AppointmentRow | undefined> {
      return trx
        .selectFrom('appointments')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Links an appointment booked by the patient's email alone to the conversation. */
    linkAppointment(
      id: string,
      conversation: { id: string; consumerId: string },
      trx: Transaction<DB>,
    ): Promise<AppointmentRow> {
      return trx
        .updateTable('appointments')
        .set({ conversation_id: conversation.id, consumer_id: conversation.consumerId })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Gives a new task at once to the reviewer holding its conversation. */
    assignTask(jobId: string, holder: string, trx: Transaction<DB>): Promise<JobRow> {
      return trx
        .updateTable('jobs')
        .set((eb) => ({
          state: 'assigned',
          assignee_id: holder,
          attempts: eb('attempts', '+', 1),
          lease_expires_at: null,
          updated_at: new Date(),
        }))
        .where('id', '=', jobId)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * What waits in an exceptions queue for a reviewer: conversations not yet allocated, plus
     * any queued job that belongs to no conversation.
     */
    async queueSize(queue: ExceptionQueue, trx: Executor = db): Promise<number> {
      const result = await sql<{ size: number }>`
        select
          (select count(*)::int from conversations
            where holder = 'queue' and status = 'open' and queue = ${queue})
          + (select count(*)::int from jobs
            where queue = ${queue} and state = 'queued' and payload->>'conversationId' is null)
          as size`.execute(trx);
      return result.rows[0]?.size ?? 0;
    },
  };
}

export type ExceptionsRepository = ReturnType<typeof createExceptionsRepository>;

/** An appointment row as the end of an encounter reads it. */
export type AppointmentRow = Selectable<AppointmentsTable>;
