import { sql, type Selectable, type Transaction } from 'kysely';
import type {
  ConversationMessage,
  ConversationView,
  ExceptionQueue,
  MessageAuthor,
  MessageEntity,
  MessageTranslation,
  PersonDetails,
  PersonSummary,
  TenantConfiguration,
} from '@loopdesk/contracts/conversations.ts';
import type { Database } from '../../platform/db/database.ts';
import type {
  ConsumersTable,
  ConversationMessagesTable,
  ConversationsTable,
  DB,
  TenantConfigurationsTable,
} from '../../platform/db/schema.ts';

export type ConversationRow = Selectable<ConversationsTable>;
export type MessageRow = Selectable<ConversationMessagesTable>;
export type ConsumerRow = Selectable<ConsumersTable>;
export type ConfigurationRow = Selectable<TenantConfigurationsTable>;
export type Executor = Database | Transaction<DB>;

const iso = (value: Date | string | number) => new Date(value).toISOString();

/** Holder values besides a reviewer's user id. */
export const BOT = 'bot';
export const QUEUE = 'queue';

/** Whether a holder value names a reviewer (a user id). */
export const isReviewer = (holder: string) => holder !== BOT && holder !== QUEUE;

export function toMessage(row: MessageRow): ConversationMessage {
  const author: MessageAuthor = { kind: row.author_kind, id: row.author_id, name: row.author_name };
  return {
    id: row.id,
    conversationId: row.conversation_id,
    direction: row.direction,
    content: row.content,
    createdOn: iso(row.created_on),
    author,
    metadata: { entities: (row.metadata.entities ?? []) as MessageEntity[] },
    translation: row.translation,
    replyTo: row.reply_to,
    replyType: row.reply_type,
  };
}

export function toConversationView(row: ConversationRow): ConversationView {
  const holder: ConversationView['holder'] =
    row.holder === BOT
      ? { kind: 'bot' }
      : row.holder === QUEUE
        ? { kind: 'queue', queue: row.queue ?? 'exceptions', queuedAt: iso(row.queued_at ?? 0) }
        : {
            kind: 'reviewer',
            reviewerId: row.holder,
            allocatedAt: iso(row.allocated_at ?? row.updated_at),
          };
  return {
    id: row.id,
    tenant: row.tenant,
    botConversationId: row.bot_conversation_id,
    userId: row.consumer_id,
    holder,
    status: row.status,
    endType: row.end_type,
    handoverReason: row.handover_reason,
    messages: row.message_count,
    createdOn: iso(row.created_at),
  };
}

export function toPersonSummary(row: ConsumerRow): PersonSummary {
  return {
    id: row.id,
    name: { given: row.given_name, family: row.family_name },
    externalReferences: row.external_references,
  };
}

export function toPersonDetails(row: ConsumerRow): PersonDetails {
  return {
    ...toPersonSummary(row),
    tenant: row.tenant,
    email: row.email,
    createdOn: iso(row.created_at),
  };
}

export function toConfiguration(row: ConfigurationRow): TenantConfiguration {
  return {
    id: row.id,
    tenant: row.tenant,
    displayName: row.display_name,
    emr: row.emr,
    timezone: row.timezone,
    updatedAt: iso(row.updated_at),
  };
}

export interface NewMessage {
  id: string;
  direction: 'IN' | 'OUT';
  content: string;
  author: MessageAuthor;
  entities?: readonly MessageEntity[];
  translation?: MessageTranslation | null;
  replyTo?: string | null;
  replyType?: string | null;
}

/** SQL over consumers, conversations and their messages. Every function takes an executor. */
export function createConversationsRepository(db: Database) {
  return {
    findConversation(id: string, trx: Executor = db): Promise<ConversationRow | undefined> {
      return trx.selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Locks a conversation's row for the rest of the transaction: who holds it cannot change. */
    lockConversation(id: string, trx: Transaction<DB>): Promise<ConversationRow | undefined> {
      return trx
        .selectFrom('conversations')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },

    /** Whether any conversation of this patient went to the restricted queue. */
    async hasRestrictedConversation(consumerId: string, trx: Executor = db): Promise<boolean> {
      const row = await trx
        .selectFrom('conversations')
        .select('id')
        .where('consumer_id', '=', consumerId)
        .where('restricted', '=', true)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    findConsumer(id: string, trx: Executor = db): Promise<ConsumerRow | undefined> {
      return trx.selectFrom('consumers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async upsertConsumer(
      consumer: {
        id: string;
        tenant: string;
        given: string;
        family: string;
        email: string | null;
        externalReferences: readonly { system: string; reference: string }[];
      },
      trx: Executor,
    ): Promise<void> {
      await trx
        .insertInto('consumers')
        .values({
          id: consumer.id,
          tenant: consumer.tenant,
          given_name: consumer.given,
          family_name: consumer.family,
          email: consumer.email,
          external_references: JSON.stringify(consumer.externalReferences),
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            given_name: consumer.given,
            family_name: consumer.family,
            email: consumer.email,
            external_references: JSON.stringify(consumer.externalReferences),
            updated_at: new Date(),
          }),
        )
        .execute();
    },

    /** Creates a conversation with the bot holding it, or updates its bot conversation id. */
    async upsertConversation(
      conversation: {
        id: string;
        tenant: string;
        consumerId: string;
        botConversationId: string | null;
      },
      trx: Executor,
    ): Promise<{ row: ConversationRow; created: boolean }> {
      const result = await sql<ConversationRow & { created: boolean }>`
        insert into conversations (id, tenant, consumer_id, bot_conversation_id)
        values (${conversation.id}, ${conversation.tenant}, ${conversation.consumerId}, ${conversation.botConversationId})
        on conflict (id) do update set
          bot_conversation_id = coalesce(excluded.bot_conversation_id, conversations.bot_conversation_id),
          updated_at = now()
        returning *, (xmax = 0) as created`.execute(trx);
      const row = result.rows[0];
      if (!row) {
        throw new Error('conversation upsert returned nothing');
      }
      const { created, ...rest } = row;
      return { row: rest, created };
    },

    findMessage(
      conversationId: string,
      id: string,
      trx: Executor = db,
    ): Promise<MessageRow | undefined> {
      return trx
        .selectFrom('conversation_messages')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Appends a message to a conversation whose row the caller has locked: its position is the
     * next one, and its time never goes back, so the transcript's order is the commit order.
     */
    async appendLocked(
      conversation: ConversationRow,
      message: NewMessage,
      trx: Transaction<DB>,
    ): Promise<MessageRow> {
      const position = conversation.message_count + 1;
      const row = await trx
        .insertInto('conversation_messages')
        .values({
          conversation_id: conversation.id,
          id: message.id,
          position,
          direction: message.direction,
          content: message.content,
          author_kind: message.author.kind,
          author_id: message.author.id,
          author_name: message.author.name,
          metadata: JSON.stringify({ entities: message.entities ?? [] }),
          translation: message.translation ? JSON.stringify(message.translation) : null,
          reply_to: message.replyTo ?? null,
          reply_type: message.replyType ?? null,
          created_on: sql<Date>`greatest(clock_timestamp(), ${conversation.last_message_at ?? new Date(0)}::timestamptz)`,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('conversations')
        .set({ message_count: position, last_message_at: row.created_on, updated_at: new Date() })
        .where('id', '=', conversation.id)
        .execute();
      return row;
    },

    /** A page of the transcript: pages count from 0, oldest or newest first. */
    listPage(
      conversationId: string,
      page: { number: number; size: number; newestFirst: boolean },
      trx: Executor = db,
    ): Promise<MessageRow[]> {
      return trx
        .selectFrom('conversation_messages')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('position', page.newestFirst ? 'desc' : 'asc')
        .limit(page.size)
        .offset(page.number * page.size)
        .execute();
    },

    /** The messages after one, oldest first: the tail poll. */
    listAfter(
      conversationId: string,
      position: number,
      size: number,
      trx: Executor = db,
    ): Promise<MessageRow[]> {
      return trx
        .selectFrom('conversation_messages')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .where('position', '>', position)
        .orderBy('position', 'asc')
        .limit(size)
        .execute();
    },

    findConfiguration(id: string, trx: Executor = db): Promise<ConfigurationRow | undefined> {
      return trx
        .selectFrom('tenant_configurations')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async upsertConfiguration(
      configuration: {
        id: string;
        tenant: string;
        displayName: string;
        emr: { system: string; recordUrl: string } | null;
        timezone: string;
      },
      trx: Executor = db,
    ): Promise<ConfigurationRow> {
      const values = {
        tenant: configuration.tenant,
        display_name: configuration.displayName,
        emr: configuration.emr ? JSON.stringify(configuration.emr) : null,
        timezone: configuration.timezone,
      };
      return trx
        .insertInto('tenant_configurations')
        .values({ id: configuration.id, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /**
     * A patient wrote: the conversation becomes unread, unless its reviewer is looking at it now
     * (their current conversation on the desk).
     */
    async markUnreadUnlessViewed(id: string, reviewer: string, trx: Executor = db): Promise<void> {
      await trx
        .updateTable('conversations')
        .set({ read: false })
        .where('id', '=', id)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('exception_reviewers')
                .select('user_id')
                .where('current_conversation_id', '=', id)
                .where('user_id', '=', reviewer),
            ),
          ),
        )
        .execute();
    },

    /** Puts a handed-over conversation at the end of an exceptions queue, waiting for a reviewer. */
    enqueueHandedOver(
      id: string,
      queue: ExceptionQueue,
      reason: string,
      trx: Executor,
    ): Promise<ConversationRow> {
      return trx
        .updateTable('conversations')
        .set({
          holder: QUEUE,
          queue,
          restricted: sql<boolean>`restricted or ${queue === 'exceptions-restricted'}`,
          queued_at: new Date(),
          queue_seq: sql<number>`nextval('conversations_queue_seq')`,
          handover_reason: reason,
          allocated_at: null,
          read: false,
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
