import {
  type ConversationMemory,
  type ConversationReads,
  type ConversationSearchQuery,
  type ConversationSearchResult,
  type CurrentClinicalSummary,
  type DemoConversationList,
  type MemoryQuery,
} from '@loopdesk/contracts/conversation-insights.ts';
import { conversationNotFound } from '@loopdesk/contracts/conversations.ts';
import {
  EXCEPTION_ERRORS,
  RESTRICTED_EXCEPTIONS_PRIVILEGE,
} from '@loopdesk/contracts/exceptions.ts';
import { hasPrivilege } from '@loopdesk/contracts/privileges.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import type { Database } from '../../platform/db/database.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import type { MemoryKeeper } from './memory.ts';
import { statusOf, type InsightsRepository } from './repository.ts';
import { composeSummary, type SummaryReviewPort } from './summary.ts';

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

/** How many conversations the visualiser's dropdown lists. */
export const DEMO_CONVERSATIONS_LIMIT = 50;
/** How many reads of a conversation its access log shows. */
export const READS_LIMIT = 50;

/**
 * Reading conversations in the visualiser (issue 14; permission rules in docs/conversations.md):
 * the tenant of X-Tenant-ID when sent, restricted conversations only with
 * jobs:exception:restricted, and every read — allowed or refused — in the audit trail.
 */
export function createInsightsService(deps: {
  db: Database;
  repo: InsightsRepository;
  memory: MemoryKeeper;
  summaryReview: () => SummaryReviewPort | undefined;
}) {
  const { db, repo, memory } = deps;
  const conversations = createConversationsRepository(db);
  const includeRestricted = (user: RequestUser) =>
    hasPrivilege(user.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE);

  const audit = (
    user: RequestUser,
    action: string,
    outcome: 'success' | 'denied' | 'failure',
    statusCode: number,
    resourceId: string | null,
    origin: Origin,
    details: Record<string, unknown> = {},
  ) =>
    recordAudit(
      db,
      {
        action,
        outcome,
        actorId: user.id,
        actorEmail: user.email,
        resourceType: resourceId === null ? 'conversations' : 'conversation',
        resourceId,
        statusCode,
        details,
      },
      origin,
    );

  /**
   * Runs a read of one conversation: refused (404 for an unknown id or another tenant's, which
   * says nothing of the other tenant; 403 for a restricted one) or done, audited either way.
   */
  async function read<T>(
    id: string,
    user: RequestUser,
    tenant: string | undefined,
    action: string,
    origin: Origin,
    work: (conversation: { id: string; tenant: string }) => Promise<T>,
  ): Promise<T> {
    try {
      const conversation = await conversations.findConversation(id);
      if (!conversation) {
        throw notFound(conversationNotFound(`no conversation with the id '${id}'`));
      }
      if (tenant !== undefined && tenant !== conversation.tenant) {
        throw notFound(conversationNotFound(`no conversation '${id}' in the tenant ${tenant}`));
      }
      if (conversation.restricted && !includeRestricted(user)) {
        throw forbidden(EXCEPTION_ERRORS.restricted);
      }
      const result = await work(conversation);
      await audit(user, action, 'success', 200, id, origin);
      return result;
    } catch (error) {
      if (error instanceof AppError) {
        await audit(
          user,
          action,
          error.statusCode === 403 ? 'denied' : 'failure',
          error.statusCode,
          id,
          origin,
          { message: error.message, ...(tenant ? { tenant } : {}) },
        );
      }
      throw error;
    }
  }

  return {
    async memory(
      id: string,
      query: MemoryQuery,
      user: RequestUser,
      tenant: string | undefined,
      origin: Origin,
    ): Promise<ConversationMemory> {
      return read(id, user, tenant, 'conversation.memory.read', origin, async () => {
        await memory.refresh(id);
        const page = await repo.page(id, { number: query.p, size: query.s });
        return {
          vertices: page.vertices.map((v) => ({
            ...v.data,
            id: v.id,
            kind: v.kind,
            label: v.label,
            conceptId: v.conceptId,
            presence: v.presence,
            onset: v.onset,
            source: v.source,
            updatedAt: v.updatedAt,
          })),
          edges: page.edges.map((e) => ({
            ...e.data,
            id: e.id,
            from: e.from,
            to: e.to,
            rel: e.rel,
            source: e.source,
          })),
          page: { number: query.p, size: query.s, total: page.total },
          version: page.version,
        };
      });
    },

    async currentSummary(
      id: string,
      user: RequestUser,
      tenant: string,
      origin: Origin,
    ): Promise<CurrentClinicalSummary> {
      return read(id, user, tenant, 'conversation.summary.read', origin, async (conversation) => {
        const reviewed = await deps.summaryReview()?.latestReviewed(conversation.tenant, id);
        if (reviewed) {
          return {
            document: reviewed.document,
            reviewed: true,
            source: 'review',
            reviewedBy: reviewed.reviewedBy,
            completedAt: reviewed.completedAt,
          };
        }
        await memory.refresh(id);
        return composeSummary(await repo.vertices(id));
      });
    },

    async reads(
      id: string,
      user: RequestUser,
      tenant: string | undefined,
      origin: Origin,
    ): Promise<ConversationReads> {
      return read(id, user, tenant, 'conversation.reads.read', origin, async () => ({
        items: await repo.reads(id, READS_LIMIT),
      }));
    },

    async search(
      query: ConversationSearchQuery,
      user: RequestUser,
      tenant: string | undefined,
      origin: Origin,
    ): Promise<ConversationSearchResult> {
      const rows = await repo.search(query, { tenant, includeRestricted: includeRestricted(user) });
      const items = rows.slice(0, query.s).map((row) => ({
        conversationId: row.id,
        tenant: row.tenant,
        patient: { id: row.consumer_id, name: `${row.given_name} ${row.family_name}`.trim() },
        status: statusOf(row),
        createdOn: new Date(row.created_at).toISOString(),
        lastMessageAt: row.last_message_at ? new Date(row.last_message_at).toISOString() : null,
        messages: row.message_count,
      }));
      const { s: _s, p: _p, ...filters } = query;
      await audit(user, 'conversation.search', 'success', 200, null, origin, {
        filters,
        ...(tenant ? { tenant } : {}),
        page: query.p,
        conversations: items.map((i) => i.conversationId),
      });
      return { items, page: { number: query.p, size: query.s, hasMore: rows.length > query.s } };
    },

    async latest(
      user: RequestUser,
      tenant: string | undefined,
      origin: Origin,
    ): Promise<DemoConversationList> {
      const rows = await repo.latest(DEMO_CONVERSATIONS_LIMIT, {
        tenant,
        includeRestricted: includeRestricted(user),
      });
      await audit(user, 'conversation.list', 'success', 200, null, origin, {
        ...(tenant ? { tenant } : {}),
        conversations: rows.map((r) => r.id),
      });
      return { items: rows.map((r) => ({ conversationId: r.id, tenant: r.tenant })) };
    },
  };
}

export type InsightsService = ReturnType<typeof createInsightsService>;
