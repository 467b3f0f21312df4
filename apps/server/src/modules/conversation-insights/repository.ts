import { sql, type RawBuilder, type Transaction } from 'kysely';
import type {
  ConversationRead,
  ConversationSearchQuery,
  ConversationStatusFilter,
} from '@loopdesk/contracts/conversation-insights.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { Edge, Vertex } from './projection.ts';

/**
 * SQL of the conversation memory (migration 019) and of finding conversations. The memory tables
 * are this module's; it only reads conversations, messages, completed jobs, the assistant's
 * answers and the audit trail.
 */

type Executor = Database | Transaction<DB>;
const iso = (value: Date | string | number | null) =>
  value === null ? null : new Date(value).toISOString();

interface VertexRow {
  id: string;
  kind: Vertex['kind'];
  label: string;
  concept_id: string | null;
  presence: Vertex['presence'];
  onset: string | null;
  source: Vertex['source'];
  data: Record<string, unknown>;
  updated_at: Date;
}

export interface StoredVertex extends Vertex {
  updatedAt: string;
}

const toVertex = (row: VertexRow): StoredVertex => ({
  id: row.id,
  kind: row.kind,
  label: row.label,
  conceptId: row.concept_id,
  presence: row.presence,
  onset: row.onset,
  source: row.source,
  data: row.data,
  updatedAt: iso(row.updated_at) ?? '',
});

export interface NewMessageRow {
  id: string;
  position: number;
  direction: 'IN' | 'OUT';
  content: string;
  author_kind: 'patient' | 'assistant' | 'reviewer';
  metadata: { entities?: unknown[] };
}

export interface CompletedJobRow {
  id: string;
  payload: Record<string, unknown> | null;
  result: { type?: string; data?: Record<string, unknown> } | null;
}

export interface MemoryAnswerRow {
  id: string;
  answer: { slots?: Record<string, unknown> } | null;
}

export interface FoundRow {
  id: string;
  tenant: string;
  consumer_id: string;
  given_name: string;
  family_name: string;
  holder: string;
  status: 'open' | 'ended';
  created_at: Date;
  last_message_at: Date | null;
  message_count: number;
}

/** Where a conversation stands, for the search: with the bot, with humans, or ended. */
export function statusOf(row: { holder: string; status: string }): ConversationStatusFilter {
  return row.status === 'ended' ? 'ended' : row.holder === 'bot' ? 'open' : 'human';
}

/** `yyyy-MM-dd` is a whole day: `to` then means before the next day. */
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The search statement (also what the EXPLAIN test plans): every filter is a sargable predicate
 * with an index of migration 019 behind it; newest first by an index, one row more than the page
 * to tell whether another page follows.
 */
export function searchStatement(
  query: ConversationSearchQuery,
  scope: { tenant: string | undefined; includeRestricted: boolean },
): RawBuilder<FoundRow> {
  const where: RawBuilder<unknown>[] = [sql`true`];
  if (scope.tenant !== undefined) {
    where.push(sql`c.tenant = ${scope.tenant}`);
  }
  if (!scope.includeRestricted) {
    where.push(sql`not c.restricted`);
  }
  if (query.id !== undefined) {
    where.push(sql`c.id = ${query.id}`);
  }
  if (query.from !== undefined) {
    where.push(sql`c.created_at >= ${new Date(query.from).toISOString()}::timestamptz`);
  }
  if (query.to !== undefined) {
    const to = new Date(query.to);
    if (isDay(query.to)) {
      to.setUTCDate(to.getUTCDate() + 1);
      where.push(sql`c.created_at < ${to.toISOString()}::timestamptz`);
    } else {
      where.push(sql`c.created_at <= ${to.toISOString()}::timestamptz`);
    }
  }
  if (query.status === 'open') {
    where.push(sql`c.status = 'open' and c.holder = 'bot'`);
  } else if (query.status === 'human') {
    where.push(sql`c.status = 'open' and c.holder <> 'bot'`);
  } else if (query.status === 'ended') {
    where.push(sql`c.status = 'ended'`);
  }
  if (query.name !== undefined) {
    const prefix = `${escapeLike(query.name.toLowerCase().replace(/\s+/g, ' '))}%`;
    where.push(sql`c.consumer_id in (
      select n.id from consumers n
      where lower(n.given_name) like ${prefix}
         or lower(n.family_name) like ${prefix}
         or lower(n.given_name || ' ' || n.family_name) like ${prefix})`);
  }
  // Conversations with the finding come first from its own index (a materialised CTE), so a rare
  // finding is not looked for by walking every conversation newest first.
  const found =
    query.finding === undefined
      ? sql``
      : sql`with found as materialized (
          select distinct v.conversation_id from conversation_memory_vertices v
          where v.kind in ('finding', 'condition') and (v.presence is null or v.presence <> 'deny')
            and (v.concept_id = ${query.finding} or lower(v.label) = ${query.finding.toLowerCase()}))`;
  if (query.finding !== undefined) {
    where.push(sql`c.id in (select conversation_id from found)`);
  }
  return sql<FoundRow>`
    ${found}
    select c.id, c.tenant, c.consumer_id, k.given_name, k.family_name, c.holder, c.status,
           c.created_at, c.last_message_at, c.message_count
    from conversations c
    join consumers k on k.id = c.consumer_id
    where ${sql.join(where, sql` and `)}
    order by c.created_at desc, c.id desc
    limit ${query.s + 1} offset ${query.p * query.s}`;
}

export function createInsightsRepository(db: Database) {
  return {
    /** Locks the conversation's memory state (made on first use) for the transaction. */
    async lockState(
      trx: Transaction<DB>,
      conversationId: string,
    ): Promise<{ message_position: number; version: number }> {
      await sql`insert into conversation_memory_state (conversation_id) values (${conversationId})
        on conflict (conversation_id) do nothing`.execute(trx);
      const { rows } = await sql<{ message_position: number; version: number }>`
        select message_position, version from conversation_memory_state
        where conversation_id = ${conversationId} for update`.execute(trx);
      const row = rows[0];
      if (!row) {
        throw new Error(`no memory state for ${conversationId}`);
      }
      return row;
    },

    async vertices(conversationId: string, trx: Executor = db): Promise<StoredVertex[]> {
      const { rows } = await sql<VertexRow>`
        select id, kind, label, concept_id, presence, onset, source, data, updated_at
        from conversation_memory_vertices where conversation_id = ${conversationId}
        order by seq`.execute(trx);
      return rows.map(toVertex);
    },

    async messagesAfter(
      trx: Transaction<DB>,
      conversationId: string,
      position: number,
    ): Promise<NewMessageRow[]> {
      const { rows } = await sql<NewMessageRow>`
        select id, position, direction, content, author_kind, metadata
        from conversation_messages
        where conversation_id = ${conversationId} and position > ${position}
        order by position`.execute(trx);
      return rows;
    },

    /** The conversation's completed jobs whose results the memory has not taken in yet. */
    async unappliedJobs(trx: Transaction<DB>, conversationId: string): Promise<CompletedJobRow[]> {
      const { rows } = await sql<CompletedJobRow>`
        select j.id, j.payload, j.result from jobs j
        where coalesce(j.payload->>'conversationId', j.payload->'metadata'->>'xdhconvid') = ${conversationId}
          and j.state = 'completed' and j.agreement_of is null
          and not exists (select 1 from conversation_memory_applied a
            where a.conversation_id = ${conversationId} and a.source_key = 'job:' || j.id::text)
        order by j.completed_at, j.id`.execute(trx);
      return rows;
    },

    /** The assistant's answers about this conversation's memory not taken in yet. */
    async unappliedMemoryAnswers(
      trx: Transaction<DB>,
      conversationId: string,
    ): Promise<MemoryAnswerRow[]> {
      const { rows } = await sql<MemoryAnswerRow>`
        select r.id, r.answer from assistant_requests r
        where r.body->>'conversationId' = ${conversationId}
          and r.kind = 'conversation.memory' and r.state = 'answered'
          and not exists (select 1 from conversation_memory_applied a
            where a.conversation_id = ${conversationId} and a.source_key = 'answer:' || r.id::text)
        order by r.answered_at, r.id`.execute(trx);
      return rows;
    },

    async markApplied(
      trx: Transaction<DB>,
      conversationId: string,
      keys: readonly string[],
    ): Promise<void> {
      for (const key of keys) {
        await sql`insert into conversation_memory_applied (conversation_id, source_key)
          values (${conversationId}, ${key}) on conflict do nothing`.execute(trx);
      }
    },

    /** Writes the memory: changed vertices, the removed ones gone, the edges anew, the state on. */
    async save(
      trx: Transaction<DB>,
      conversationId: string,
      change: {
        upsert: readonly Vertex[];
        remove: readonly string[];
        edges: readonly Edge[];
        position: number;
        changed: boolean;
      },
    ): Promise<void> {
      await sql`delete from conversation_memory_edges where conversation_id = ${conversationId}`.execute(
        trx,
      );
      for (const id of change.remove) {
        await sql`delete from conversation_memory_vertices
          where conversation_id = ${conversationId} and id = ${id}`.execute(trx);
      }
      for (const v of change.upsert) {
        await sql`insert into conversation_memory_vertices
            (conversation_id, id, kind, label, concept_id, presence, onset, source, data)
          values (${conversationId}, ${v.id}, ${v.kind}, ${v.label}, ${v.conceptId}, ${v.presence},
            ${v.onset}, ${v.source}, ${JSON.stringify(v.data)})
          on conflict (conversation_id, id) do update set kind = excluded.kind,
            label = excluded.label, concept_id = excluded.concept_id, presence = excluded.presence,
            onset = excluded.onset, source = excluded.source, data = excluded.data,
            updated_at = now()`.execute(trx);
      }
      for (const e of change.edges) {
        await sql`insert into conversation_memory_edges
            (conversation_id, id, from_id, to_id, rel, source, data)
          values (${conversationId}, ${e.id}, ${e.from}, ${e.to}, ${e.rel}, ${e.source},
            ${JSON.stringify(e.data)})
          on conflict do nothing`.execute(trx);
      }
      await sql`update conversation_memory_state set message_position = ${change.position},
          version = version + ${change.changed ? 1 : 0}, updated_at = now()
        where conversation_id = ${conversationId}`.execute(trx);
    },

    /** A page of the memory's vertices (oldest first), the edges between them, and the total. */
    async page(
      conversationId: string,
      page: { number: number; size: number },
    ): Promise<{ vertices: StoredVertex[]; edges: Edge[]; total: number; version: number }> {
      const { rows } = await sql<VertexRow>`
        select id, kind, label, concept_id, presence, onset, source, data, updated_at
        from conversation_memory_vertices where conversation_id = ${conversationId}
        order by seq limit ${page.size} offset ${page.number * page.size}`.execute(db);
      const ids = rows.map((r) => r.id);
      const edges =
        ids.length === 0
          ? []
          : (
              await sql<Edge & { from_id: string; to_id: string }>`
                select id, from_id, to_id, rel, source, data from conversation_memory_edges
                where conversation_id = ${conversationId}
                  and from_id in (${sql.join(ids)}) and to_id in (${sql.join(ids)})
                order by created_at, id`.execute(db)
            ).rows.map((e) => ({
              id: e.id,
              from: e.from_id,
              to: e.to_id,
              rel: e.rel,
              source: e.source,
              data: e.data,
            }));
      const { rows: totals } = await sql<{ total: number; version: number | null }>`
        select (select count(*)::int from conversation_memory_vertices
                 where conversation_id = ${conversationId}) as total,
               (select version from conversation_memory_state
                 where conversation_id = ${conversationId}) as version`.execute(db);
      return {
        vertices: rows.map(toVertex),
        edges,
        total: totals[0]?.total ?? 0,
        version: totals[0]?.version ?? 0,
      };
    },

    async search(
      query: ConversationSearchQuery,
      scope: { tenant: string | undefined; includeRestricted: boolean },
    ): Promise<FoundRow[]> {
      return (await searchStatement(query, scope).execute(db)).rows;
    },

    /** The newest conversations (the visualiser's dropdown). */
    async latest(
      limit: number,
      scope: { tenant: string | undefined; includeRestricted: boolean },
    ): Promise<{ id: string; tenant: string }[]> {
      const { rows } = await sql<{ id: string; tenant: string }>`
        select c.id, c.tenant from conversations c
        where ${scope.tenant === undefined ? sql`true` : sql`c.tenant = ${scope.tenant}`}
          and ${scope.includeRestricted ? sql`true` : sql`not c.restricted`}
        order by c.created_at desc, c.id desc limit ${limit}`.execute(db);
      return rows;
    },

    /** Who read a conversation, newest first, from the audit trail. */
    async reads(conversationId: string, limit: number): Promise<ConversationRead[]> {
      const { rows } = await sql<{
        occurred_at: Date;
        actor_email: string | null;
        action: string;
        outcome: ConversationRead['outcome'];
      }>`
        select occurred_at, actor_email, action, outcome from audit_events
        where resource_type = 'conversation' and resource_id = ${conversationId}
          and actor_id is not null
        order by occurred_at desc, id desc limit ${limit}`.execute(db);
      return rows.map((r) => ({
        at: iso(r.occurred_at) ?? '',
        actorEmail: r.actor_email,
        action: r.action,
        outcome: r.outcome,
      }));
    },
  };
}

export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
