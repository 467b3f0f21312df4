import { isDeepStrictEqual } from 'node:util';
import {
  conversationNotFound,
  isDerivedMessageId,
  type AppendMessageBody,
  type ConversationMessage,
  type ConversationView,
  type HandoverBody,
  type MessagesPage,
  type MessagesQuery,
  type PersonDetails,
  type PersonSummary,
  type PutConfigurationBody,
  type PutConversationBody,
  type TenantConfiguration,
} from '@loopdesk/contracts/conversations.ts';
import {
  EXCEPTION_ERRORS,
  RESTRICTED_EXCEPTIONS_PRIVILEGE,
} from '@loopdesk/contracts/exceptions.ts';
import { hasPrivilege, type Role } from '@loopdesk/contracts/privileges.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { RedFlags } from './red-flags.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import {
  BOT,
  QUEUE,
  createConversationsRepository,
  isReviewer,
  toConfiguration,
  toConversationView,
  toMessage,
  toPersonDetails,
  toPersonSummary,
  type ConversationRow,
  type MessageRow,
} from './repository.ts';

/** Where a request came from, for the audit trail. */
export interface Origin {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** Who asked, for the audit trail: a signed-in reviewer or an API key. */
export interface Actor {
  userId: string | null;
  email: string | null;
  apiKey?: string;
}

/** What the exception desk must hear about: new messages for the holder, new waiting work. */
export interface ConversationListener {
  messageAdded(conversation: ConversationRow, message: ConversationMessage): Promise<void>;
  handedOver(): Promise<void>;
}

const SOURCE_TENANT_MISMATCH = 'belongs to another tenant';

/**
 * Conversations: what the assistant records (patients, conversations, messages, handovers) and
 * what reviewers read (transcripts, person summaries, tenant configurations).
 */
export function createConversationsService(deps: {
  db: Database;
  listener: ConversationListener;
  /** Marks the red flags of patient messages (issue 20). */
  redFlags?: RedFlags;
}) {
  const { db, listener } = deps;
  const mark = (message: ConversationMessage) =>
    deps.redFlags ? deps.redFlags.mark(message) : message;
  const repo = createConversationsRepository(db);

  /** The conversation or the spec's 'Conversation not found - {error}' (spec 2 §8). */
  async function readable(
    id: string,
    reader: { roles: readonly Role[] },
    tenant: string | undefined,
  ): Promise<ConversationRow> {
    const conversation = await repo.findConversation(id);
    if (!conversation) {
      throw notFound(conversationNotFound(`no conversation with the id '${id}'`));
    }
    if (tenant !== undefined && tenant !== conversation.tenant) {
      throw notFound(conversationNotFound(`'${id}' ${SOURCE_TENANT_MISMATCH} than ${tenant}`));
    }
    if (conversation.restricted && !hasPrivilege(reader.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE)) {
      throw forbidden(EXCEPTION_ERRORS.restricted);
    }
    return conversation;
  }

  return {
    /** A page of the transcript, or its tail after a message (spec 2 §7). */
    async messages(
      id: string,
      query: MessagesQuery,
      reader: { id: string; email: string; roles: readonly Role[] },
      tenant: string | undefined,
      origin: Origin,
    ): Promise<MessagesPage> {
      const conversation = await readable(id, reader, tenant);
      let rows: MessageRow[];
      let number = 0;
      if (query.last !== undefined) {
        const last = await repo.findMessage(id, query.last);
        if (!last) {
          throw badRequest(
            `No message '${query.last}' in the conversation ${id}: pass the id of the newest message you have as last.`,
            [{ path: 'querystring.last', message: 'is not a message of this conversation' }],
          );
        }
        rows = await repo.listAfter(id, last.position, query.s);
      } else {
        number = query.p ?? 0;
        rows = await repo.listPage(id, {
          number,
          size: query.s,
          newestFirst: query.order === '-createdOn',
        });
      }
      // A transcript is patient data: every read that returns messages is in the audit trail
      // (the 2-second tail poll that finds nothing new is not).
      if (rows.length > 0) {
        await recordAudit(
          db,
          {
            action: 'conversation.messages.read',
            outcome: 'success',
            actorId: reader.id,
            actorEmail: reader.email,
            resourceType: 'conversation',
            resourceId: id,
            statusCode: 200,
            details: {
              messages: rows.map((r) => r.id),
              ...(query.last ? { after: query.last } : { page: number }),
            },
          },
          origin,
        );
      }
      const total = conversation.message_count;
      await deps.redFlags?.ready();
      return {
        items: rows.map((row) => mark(toMessage(row))),
        page: { number, size: query.s, total, totalPages: Math.ceil(total / query.s) },
      };
    },

    /** Person summary (spec 2 §3), or more with o=full. */
    async consumer(
      id: string,
      full: boolean,
      reader: { id: string; email: string; roles: readonly Role[] },
      tenant: string | undefined,
      origin: Origin,
    ): Promise<PersonSummary | PersonDetails> {
      const row = await repo.findConsumer(id);
      if (!row || (tenant !== undefined && tenant !== row.tenant)) {
        throw notFound(
          `No patient with the id '${id}'${tenant === undefined ? '' : ` in the tenant ${tenant}`}.`,
        );
      }
      // A patient of the restricted queue is as private as their transcript.
      if (
        !hasPrivilege(reader.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE) &&
        (await repo.hasRestrictedConversation(id))
      ) {
        throw forbidden(EXCEPTION_ERRORS.restrictedPatient);
      }
      await recordAudit(
        db,
        {
          action: 'consumer.read',
          outcome: 'success',
          actorId: reader.id,
          actorEmail: reader.email,
          resourceType: 'consumer',
          resourceId: id,
          statusCode: 200,
        },
        origin,
      );
      return full ? toPersonDetails(row) : toPersonSummary(row);
    },

    async configuration(id: string, tenant: string | undefined): Promise<TenantConfiguration> {
      const row = await repo.findConfiguration(id);
      if (!row || (tenant !== undefined && tenant !== row.tenant)) {
        throw notFound(
          `No configuration '${id}'${tenant === undefined ? '' : ` for the tenant ${tenant}`}: the assistant registers it with PUT /api/v1/configurations/{id}.`,
        );
      }
      return toConfiguration(row);
    },

    async putConfiguration(
      id: string,
      body: PutConfigurationBody,
      actor: Actor,
      origin: Origin,
    ): Promise<TenantConfiguration> {
      return db.transaction().execute(async (trx) => {
        const row = await repo.upsertConfiguration({ id, ...body, emr: body.emr ?? null }, trx);
        await recordAudit(
          trx,
          {
            action: 'configuration.put',
            outcome: 'success',
            resourceType: 'configuration',
            resourceId: id,
            statusCode: 200,
            details: { apiKey: actor.apiKey },
          },
          origin,
        );
        return toConfiguration(row);
      });
    },

    /** A conversation. */
    async get(id: string): Promise<ConversationView> {
      const row = await repo.findConversation(id);
      if (!row) {
        throw notFound(`No conversation with the id '${id}'.`);
      }
      return toConversationView(row);
    },

    /** Registers a conversation and its patient (or updates them): a safe retry. */
    async put(
      id: string,
      body: PutConversationBody,
      actor: Actor,
      origin: Origin,
    ): Promise<{ conversation: ConversationView; created: boolean }> {
      return db.transaction().execute(async (trx) => {
        const existing = await repo.lockConversation(id, trx);
        if (existing && existing.tenant !== body.tenant) {
          throw conflict(
            `The conversation ${id} belongs to the tenant ${existing.tenant}: a conversation never changes tenant.`,
          );
        }
        if (existing && existing.consumer_id !== body.consumer.id) {
          throw conflict(
            `The conversation ${id} is with the patient ${existing.consumer_id}: a conversation never changes patient.`,
          );
        }
        const consumer = await repo.findConsumer(body.consumer.id, trx);
        if (consumer && consumer.tenant !== body.tenant) {
          throw conflict(
            `The patient ${body.consumer.id} belongs to the tenant ${consumer.tenant}: use that tenant or another patient id.`,
          );
        }
        await repo.upsertConsumer(
          {
            id: body.consumer.id,
            tenant: body.tenant,
            given: body.consumer.name.given,
            family: body.consumer.name.family,
            email: body.consumer.email ?? null,
            externalReferences: body.consumer.externalReferences,
          },
          trx,
        );
        const { row, created } = await repo.upsertConversation(
          {
            id,
            tenant: body.tenant,
            consumerId: body.consumer.id,
            botConversationId: body.botConversationId ?? null,
          },
          trx,
        );
        await recordAudit(
          trx,
          {
            action: created ? 'conversation.create' : 'conversation.update',
            outcome: 'success',
            resourceType: 'conversation',
            resourceId: id,
            statusCode: created ? 201 : 200,
            details: { apiKey: actor.apiKey, consumer: body.consumer.id },
          },
          origin,
        );
        return { conversation: toConversationView(row), created };
      });
    },

    /**
     * Appends the patient's message (IN) or the assistant's (OUT). The assistant may write only
     * while it holds the conversation: while humans have it, it must stay silent.
     */
    async append(
      id: string,
      body: AppendMessageBody,
      actor: Actor,
      origin: Origin,
    ): Promise<{ message: ConversationMessage; created: boolean }> {
      const result = await db.transaction().execute(async (trx) => {
        const conversation = await repo.lockConversation(id, trx);
        if (!conversation) {
          throw notFound(
            `No conversation with the id '${id}': register it with PUT /api/v1/conversations/${id} first.`,
          );
        }
        const existing = await repo.findMessage(id, body.id, trx);
        if (existing) {
          const same =
            existing.direction === body.direction &&
            existing.content === body.content &&
            isDeepStrictEqual(existing.metadata.entities, body.metadata?.entities ?? []);
          if (!same) {
            throw conflict(
              `The message id '${body.id}' was already used for a different message in ${id}: send a new id for a new message.`,
            );
          }
          return { conversation, row: existing, created: false };
        }
        if (body.direction === 'OUT' && conversation.holder !== BOT) {
          throw conflict(
            conversation.holder === QUEUE
              ? `The conversation ${id} waits for a reviewer: the assistant stays silent until it is handed back.`
              : `A reviewer holds the conversation ${id}: the assistant stays silent until it is handed back.`,
          );
        }
        if (body.replyTo !== undefined && !(await repo.findMessage(id, body.replyTo, trx))) {
          throw badRequest(
            `replyTo '${body.replyTo}' is not a message of the conversation ${id}.`,
            [{ path: 'body.replyTo', message: 'is not a message of this conversation' }],
          );
        }
        const consumer = await repo.findConsumer(conversation.consumer_id, trx);
        const row = await repo.appendLocked(
          conversation,
          {
            id: body.id,
            direction: body.direction,
            content: body.content,
            author:
              body.direction === 'IN'
                ? {
                    kind: 'patient',
                    id: conversation.consumer_id,
                    name: consumer
                      ? `${consumer.given_name} ${consumer.family_name}`.trim()
                      : conversation.consumer_id,
                  }
                : { kind: 'assistant', id: 'assistant', name: 'Assistant' },
            entities: body.metadata?.entities ?? [],
            translation: body.translation ?? null,
            replyTo: body.replyTo ?? null,
          },
          trx,
        );
        // A patient who writes to a conversation the reviewer is not looking at makes it unread
        // (the assistant's derived notes, -DER, are not the patient writing).
        if (
          body.direction === 'IN' &&
          !isDerivedMessageId(body.id) &&
          isReviewer(conversation.holder)
        ) {
          await repo.markUnreadUnlessViewed(id, conversation.holder, trx);
        }
        await recordAudit(
          trx,
          {
            action: 'conversation.message.append',
            outcome: 'success',
            resourceType: 'conversation',
            resourceId: id,
            statusCode: 201,
            details: { apiKey: actor.apiKey, message: body.id, direction: body.direction },
          },
          origin,
        );
        return { conversation, row, created: true };
      });
      const message = toMessage(result.row);
      if (result.created) {
        await listener.messageAdded(result.conversation, message);
      }
      return { message, created: result.created };
    },

    /**
     * The assistant cannot go on: the conversation goes to the end of an exceptions queue and the
     * assistant falls silent. Handing over a conversation humans already have changes nothing.
     */
    async handover(
      id: string,
      body: HandoverBody,
      actor: Actor,
      origin: Origin,
    ): Promise<{ conversation: ConversationView; changed: boolean }> {
      const result = await db.transaction().execute(async (trx) => {
        const conversation = await repo.lockConversation(id, trx);
        if (!conversation) {
          throw notFound(
            `No conversation with the id '${id}': register it with PUT /api/v1/conversations/${id} first.`,
          );
        }
        if (conversation.status === 'ended') {
          throw conflict(
            `The conversation ${id} ended (${conversation.end_type ?? 'END'}): start a new conversation instead.`,
          );
        }
        if (conversation.holder !== BOT) {
          return { row: conversation, changed: false };
        }
        const row = await repo.enqueueHandedOver(id, body.queue, body.reason, trx);
        await recordAudit(
          trx,
          {
            action: 'conversation.handover',
            outcome: 'success',
            resourceType: 'conversation',
            resourceId: id,
            statusCode: 200,
            details: { apiKey: actor.apiKey, queue: body.queue, reason: body.reason },
          },
          origin,
        );
        return { row, changed: true };
      });
      if (result.changed) {
        await listener.handedOver();
      }
      return { conversation: toConversationView(result.row), changed: result.changed };
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
