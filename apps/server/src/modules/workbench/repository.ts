import { sql, type Selectable } from 'kysely';
import type {
  AnsweredRequestView,
  AnswerRequestBody,
  AssistantRequestKind,
} from '@loopdesk/contracts/quinn.ts';
import type { Database } from '../../platform/db/database.ts';
import type { AssistantRequestsTable } from '../../platform/db/schema.ts';

export type AssistantRequestRow = Selectable<AssistantRequestsTable>;

/** How long a request handed to one assistant poll waits for its answer before another poll gets it. */
export const RECLAIM_AFTER_MS = 5_000;

/** The request as the assistant reads it. */
export function toRequestView(row: AssistantRequestRow): AnsweredRequestView {
  return {
    id: row.id,
    kind: row.kind as AssistantRequestKind,
    tenant: row.tenant,
    body: row.body,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    state: row.state,
    answeredAt: row.answered_at ? new Date(row.answered_at).toISOString() : null,
  };
}

/** SQL of the portal's questions to the assistant. */
export function createQuinnRepository(db: Database) {
  return {
    create(input: {
      kind: AssistantRequestKind;
      tenant: string;
      cacheKey: string | null;
      body: Record<string, unknown>;
      requestedBy: string | null;
      timeoutMs: number;
    }): Promise<AssistantRequestRow> {
      return db
        .insertInto('assistant_requests')
        .values({
          kind: input.kind,
          tenant: input.tenant,
          cache_key: input.cacheKey,
          body: JSON.stringify(input.body),
          requested_by: input.requestedBy,
          expires_at: sql<Date>`now() + ${`${input.timeoutMs} milliseconds`}::interval`,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    get(id: string): Promise<AssistantRequestRow | undefined> {
      return db
        .selectFrom('assistant_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The newest answer to the same question, if it came after `since`. */
    findCached(
      kind: AssistantRequestKind,
      tenant: string,
      cacheKey: string,
      since: Date,
    ): Promise<AssistantRequestRow | undefined> {
      return db
        .selectFrom('assistant_requests')
        .selectAll()
        .where('kind', '=', kind)
        .where('tenant', '=', tenant)
        .where('cache_key', '=', cacheKey)
        .where('state', '=', 'answered')
        .where('answered_at', '>=', since)
        .orderBy('answered_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** The newest answer to the same question, however old (the submission check's view). */
    findLatestAnswer(
      kind: AssistantRequestKind,
      tenant: string,
      cacheKey: string,
    ): Promise<AssistantRequestRow | undefined> {
      return this.findCached(kind, tenant, cacheKey, new Date(0));
    },

    /**
     * Hands out pending requests, oldest first: those no poll holds, and those held longer than
     * {@link RECLAIM_AFTER_MS} without an answer. Concurrent polls get different requests.
     */
    async claimPending(limit: number): Promise<AssistantRequestRow[]> {
      const result = await sql<AssistantRequestRow>`
        update assistant_requests set claimed_at = now()
        where id in (
          select id from assistant_requests
          where state = 'pending' and expires_at > now()
            and (claimed_at is null
              or claimed_at < now() - ${`${RECLAIM_AFTER_MS} milliseconds`}::interval)
          order by created_at
          limit ${limit}
          for update skip locked)
        returning *`.execute(db);
      return result.rows.sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at));
    },

    /** Closes a pending request with its answer or its failure; undefined when it was not pending. */
    settle(
      id: string,
      outcome: AnswerRequestBody,
      answeredBy: string,
    ): Promise<AssistantRequestRow | undefined> {
      return db
        .updateTable('assistant_requests')
        .set({
          state: 'answer' in outcome ? 'answered' : 'failed',
          answer: 'answer' in outcome ? JSON.stringify(outcome.answer) : null,
          error: 'error' in outcome ? outcome.error : null,
          error_reason: 'error' in outcome ? (outcome.reason ?? null) : null,
          answered_by: answeredBy,
          answered_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .where('expires_at', '>', sql<Date>`now()`)
        .returningAll()
        .executeTakeFirst();
    },

    /** Marks a request the portal stopped waiting for; false when it was answered meanwhile. */
    async expire(id: string): Promise<boolean> {
      const result = await db
        .updateTable('assistant_requests')
        .set({ state: 'expired' })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type QuinnRepository = ReturnType<typeof createQuinnRepository>;
