import { conversationDifferential } from '@loopdesk/clinical/inference/conversation.ts';
import { conversationNotFound } from '@loopdesk/contracts/conversations.ts';
import { EXCEPTION_ERRORS } from '@loopdesk/contracts/exceptions.ts';
import type { ConversationDifferentialResponse } from '@loopdesk/contracts/intelligence.ts';
import { hasPrivilege } from '@loopdesk/contracts/privileges.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import type { Database } from '../../platform/db/database.ts';
import { awaitBuild, forbidden, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import type { Knowledge } from '../knowledge/knowledge.ts';

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

/** The differential reads at most this many of a conversation's latest messages. */
export const CONVERSATION_DIFFERENTIAL_MESSAGES = 500;

/**
 * The differential of what the patient said in a stored conversation (spec 3 §3, §4). Reads like
 * the transcript: the tenant of X-Tenant-ID when sent, restricted conversations only with
 * jobs:exception:restricted, and every read in the audit trail.
 */
export function createConversationDifferentialService(deps: {
  db: Database;
  knowledge: Knowledge;
}) {
  const { db, knowledge } = deps;
  const conversations = createConversationsRepository(db);
  return {
    async differentialOf(
      id: string,
      user: RequestUser,
      tenant: string | undefined,
      origin: Origin,
    ): Promise<ConversationDifferentialResponse> {
      const conversation = await conversations.findConversation(id);
      if (!conversation) {
        throw notFound(conversationNotFound(`no conversation with the id '${id}'`));
      }
      if (tenant !== undefined && tenant !== conversation.tenant) {
        throw notFound(conversationNotFound(`'${id}' belongs to another tenant than ${tenant}`));
      }
      if (conversation.restricted && !hasPrivilege(user.roles, 'jobs:exception:restricted')) {
        throw forbidden(EXCEPTION_ERRORS.restricted);
      }
      const latest = await conversations.listPage(id, {
        number: 0,
        size: CONVERSATION_DIFFERENTIAL_MESSAGES,
        newestFirst: true,
      });
      const patient = latest
        .filter((m) => m.direction === 'IN')
        .reverse()
        .map((m) => ({ id: m.id, text: m.content }));
      await awaitBuild(knowledge.recogniser.ready, 'Entity recognition');
      const result = conversationDifferential(
        patient,
        knowledge.recogniser,
        knowledge.differential,
        knowledge.kb.items,
      );
      await recordAudit(
        db,
        {
          action: 'conversation.differential.read',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'conversation',
          resourceId: id,
          statusCode: 200,
        },
        origin,
      );
      return {
        value: {
          conversationId: id,
          observations: result.findings.map((f) => ({
            observation: f.canonicalName,
            observationId: f.conceptId,
            class: f.class,
            presence: f.presence,
            messageId: f.messageId,
            original: f.original,
          })),
          inference: result.inference.map((entry) => ({
            conditionName: entry.conditionName,
            conditionId: entry.conditionId,
            probability: entry.probability,
            ...(entry.acuity === undefined ? {} : { acuity: entry.acuity }),
            complications: entry.complications.map((c) => ({
              id: c.id,
              name: c.name,
              ...(c.question === undefined ? {} : { question: c.question }),
              acuity: c.acuity,
              ...(c.response === 'endorse' || c.response === 'deny'
                ? { response: c.response }
                : {}),
            })),
            associatedObservations: entry.associatedObservations,
          })),
          differentiatingObservations: result.differentiatingObservations,
          ...(result.acuity === 'emergent' ||
          result.acuity === 'urgent' ||
          result.acuity === 'other'
            ? { acuity: result.acuity }
            : {}),
          acuityRing: result.acuityRing,
        },
      };
    },
  };
}
