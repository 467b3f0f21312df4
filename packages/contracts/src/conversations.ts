import { z } from 'zod';

/**
 * Patient conversations (spec 2 §3 "Conversation message", "Person summary"; spec 3 §3
 * "Conversation message"): the transcript the exception desk shows, the person behind it, and the
 * integration calls through which the assistant records them and hands a conversation to humans.
 */

const isoDate = z.string().describe('ISO 8601 date-time');

/** Ids the assistant chooses (conversations, messages, consumers): letters, digits and `._:-`. */
export const ExternalId = z
  .string()
  .regex(
    /^[A-Za-z0-9._:-]{1,200}$/,
    'must be 1–200 letters, digits, dots, underscores, colons or hyphens',
  );

export const ConversationIdParams = z.object({ id: ExternalId });
export type ConversationIdParams = z.infer<typeof ConversationIdParams>;

/** Message direction: IN from the patient, OUT to the patient (spec 2 §3). */
export const MessageDirection = z.enum(['IN', 'OUT']);
export type MessageDirection = z.infer<typeof MessageDirection>;

/** Who wrote a message: the patient, the assistant, or a reviewer of the exception desk. */
export const MessageAuthor = z.object({
  kind: z.enum(['patient', 'assistant', 'reviewer']),
  id: z.string(),
  name: z.string(),
});
export type MessageAuthor = z.infer<typeof MessageAuthor>;

/** An annotation entity in a message (spec 2 §3; spec 3 §3 adds normalised, negated, concepts). */
export const MessageEntity = z.looseObject({
  id: z.string().optional(),
  start: z.number().int().min(0).optional(),
  end: z.number().int().min(0).optional(),
  extract: z.string(),
  category: z.string(),
  normalised: z.boolean().optional(),
  negated: z.boolean().optional(),
  concepts: z
    .array(z.looseObject({ code: z.unknown().optional(), text: z.string().optional() }))
    .optional(),
});
export type MessageEntity = z.infer<typeof MessageEntity>;

export const MessageTranslation = z.object({
  language: z.string().min(1).max(20),
  translation: z.string().max(20_000),
});
export type MessageTranslation = z.infer<typeof MessageTranslation>;

/** Suffix of a derived message's id: the assistant's note of what it understood (spec 2 §2). */
export const DERIVED_MESSAGE_SUFFIX = '-DER';

/** A message id ending in -DER is a derived message: hidden unless an entity is focused. */
export function isDerivedMessageId(messageId: string): boolean {
  return messageId.endsWith(DERIVED_MESSAGE_SUFFIX);
}

/** Reply type of a reviewer's manual reply (spec 2 §9). */
export const MANUAL_REPLY_TYPE = 'MANUAL';

/**
 * A red flag (issue 20): what the clinical recogniser found in a patient message that is an
 * observation of a high-acuity (emergent) condition, e.g. chest pain or one-sided weakness.
 */
export const RedFlag = z.object({
  observation: z.string().describe('the observation found, by its canonical name'),
  observationId: z.string(),
  conditions: z.array(z.string()).describe('the emergent conditions it is an observation of'),
});
export type RedFlag = z.infer<typeof RedFlag>;

/** A message of a conversation as the portal reads it. */
export const ConversationMessage = z.object({
  id: z.string(),
  conversationId: z.string(),
  direction: MessageDirection,
  content: z.string(),
  createdOn: isoDate,
  author: MessageAuthor,
  metadata: z.object({ entities: z.array(MessageEntity) }),
  translation: MessageTranslation.nullable(),
  replyTo: z.string().nullable(),
  replyType: z.string().nullable(),
  redFlags: z
    .array(RedFlag)
    .optional()
    .describe('patient messages read at the desk: the red flags found in it (issue 20)'),
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;

/** Messages load in pages of 10; the tail poll asks for up to 100 (spec 2 §9). */
export const MESSAGES_PAGE_SIZE = 10;
export const MESSAGES_TAIL_SIZE = 100;
export const MESSAGES_MAX_PAGE_SIZE = 100;
/** The transcript is tail-polled every 2 s (spec 2 §9). */
export const MESSAGES_TAIL_POLL_MS = 2000;

/**
 * Query of `GET /internal/conversations/{id}/messages`: a page (`order=createdOn&s=&p=`, pages
 * count from 0; `-createdOn` gives newest first) or the tail after a message (`last={id}&s=100`).
 */
export const MessagesQuery = z
  .object({
    order: z
      .enum(['createdOn', '-createdOn'], { message: "must be 'createdOn' or '-createdOn'" })
      .default('createdOn'),
    s: z.coerce
      .number({ message: `must be a page size from 1 to ${MESSAGES_MAX_PAGE_SIZE}` })
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .max(MESSAGES_MAX_PAGE_SIZE, { message: `must be at most ${MESSAGES_MAX_PAGE_SIZE}` })
      .default(MESSAGES_PAGE_SIZE),
    p: z.coerce
      .number({ message: 'must be a page number from 0' })
      .int({ message: 'must be a whole number' })
      .min(0, { message: 'must be 0 or more (pages count from 0)' })
      .optional(),
    last: ExternalId.optional().describe(
      'the id of the newest message you have: the tail after it',
    ),
  })
  .refine((query) => query.last === undefined || query.p === undefined, {
    message: 'pass either last (the tail after a message) or p (a page), not both',
    path: ['p'],
  })
  .refine((query) => query.last === undefined || query.order === 'createdOn', {
    message: 'the tail (last=) is always oldest first: use order=createdOn or leave it out',
    path: ['order'],
  });
export type MessagesQuery = z.infer<typeof MessagesQuery>;

export const MessagesPage = z.object({
  items: z.array(ConversationMessage),
  page: z.object({
    number: z.number().int().describe('the page asked for; 0 for a tail'),
    size: z.number().int(),
    total: z.number().int().describe('messages in the conversation'),
    totalPages: z.number().int(),
  }),
});
export type MessagesPage = z.infer<typeof MessagesPage>;

/** The optional tenant header of the conversation calls (spec 2 §7). */
export const TENANT_HEADER = 'x-tenant-id';
export const TenantHeaders = z.looseObject({
  [TENANT_HEADER]: z.string().min(1).max(200).optional(),
});
export type TenantHeaders = z.infer<typeof TenantHeaders>;

// ---------------------------------------------------------------------------------------------
// Consumers (the patients) and tenant configurations

export const PersonName = z.object({
  given: z.string().trim().min(1, 'must not be empty').max(200),
  family: z.string().trim().max(200).default(''),
});
export type PersonName = z.infer<typeof PersonName>;

/** A record of the patient elsewhere; `reference` is a full URL when it links to the EMR. */
export const ExternalReference = z.object({
  system: z.string().min(1).max(200),
  reference: z.string().min(1).max(2000),
});
export type ExternalReference = z.infer<typeof ExternalReference>;

/** Person summary (spec 2 §3): `GET /internal/consumers/{id}`. */
export const PersonSummary = z.object({
  id: z.string(),
  name: z.object({ given: z.string(), family: z.string() }),
  externalReferences: z.array(ExternalReference),
});
export type PersonSummary = z.infer<typeof PersonSummary>;

/** `o=full` adds what the desk does not need on every load. */
export const PersonDetails = PersonSummary.extend({
  tenant: z.string(),
  email: z.string().nullable(),
  createdOn: isoDate,
});
export type PersonDetails = z.infer<typeof PersonDetails>;

/** `GET /internal/consumers/{id}`: the details with `o=full`, else the summary. */
export const ConsumerView = z.union([PersonDetails, PersonSummary]);
export type ConsumerView = z.infer<typeof ConsumerView>;

export const ConsumerQuery = z.object({
  o: z
    .enum(['summary', 'full'], { message: "must be 'summary' (the default) or 'full'" })
    .optional()
    .describe('summary: id, name, externalReferences; full: also tenant, email and createdOn'),
});
export type ConsumerQuery = z.infer<typeof ConsumerQuery>;

/** Placeholder of an EMR record URL template, filled with the external reference. */
export const EMR_REFERENCE_PLACEHOLDER = '{reference}';

/** A tenant's configuration (`GET /internal/configurations/{id}`). */
export const TenantConfiguration = z.object({
  id: z.string(),
  tenant: z.string(),
  displayName: z.string(),
  emr: z
    .object({
      system: z.string().describe('the externalReferences system that names the EMR record'),
      recordUrl: z
        .string()
        .describe(`link to the EMR record, with ${EMR_REFERENCE_PLACEHOLDER} for the reference`),
    })
    .nullable(),
  timezone: z.string().describe('the clinic’s timezone'),
  updatedAt: isoDate,
});
export type TenantConfiguration = z.infer<typeof TenantConfiguration>;

// ---------------------------------------------------------------------------------------------
// Integration API (/api/v1): what the assistant sends

/** Body of `PUT /api/v1/conversations/{id}`: registers (or updates) a conversation and its patient. */
export const PutConversationBody = z.strictObject({
  tenant: z.string().min(1, 'must not be empty').max(200),
  botConversationId: z.string().min(1).max(200).optional(),
  consumer: z.strictObject({
    id: ExternalId.describe('the patient’s id: the userId of jobs and the recipientId of replies'),
    name: PersonName,
    email: z.email({ message: 'must be an email address' }).optional(),
    externalReferences: z.array(ExternalReference).max(20).default([]),
  }),
});
export type PutConversationBody = z.infer<typeof PutConversationBody>;

/** Body of `POST /api/v1/conversations/{id}/messages`: a patient (IN) or assistant (OUT) message. */
export const AppendMessageBody = z.strictObject({
  id: ExternalId.describe(
    'your message id; sending the same id again is a safe retry. Ids ending in -DER are derived messages the desk hides unless an entity is focused',
  ),
  direction: MessageDirection,
  content: z
    .string()
    .max(20_000, 'must be at most 20000 characters')
    .refine((value) => value.trim().length > 0, 'must not be empty'),
  metadata: z.object({ entities: z.array(MessageEntity).max(500) }).optional(),
  translation: MessageTranslation.optional(),
  replyTo: ExternalId.optional(),
});
export type AppendMessageBody = z.infer<typeof AppendMessageBody>;

/** The two exceptions queues: the restricted one needs the privilege `jobs:exception:restricted`. */
export const EXCEPTION_QUEUES = ['exceptions', 'exceptions-restricted'] as const;
export const ExceptionQueue = z.enum(EXCEPTION_QUEUES);
export type ExceptionQueue = z.infer<typeof ExceptionQueue>;

/** Body of `POST /api/v1/conversations/{id}/handover`: the assistant cannot go on. */
export const HandoverBody = z.strictObject({
  reason: z.string().trim().min(1, 'must not be empty').max(500),
  queue: ExceptionQueue.default('exceptions'),
});
export type HandoverBody = z.infer<typeof HandoverBody>;

/** Who may write to the patient now: the bot, nobody yet (waiting in a queue), or one reviewer. */
export const ConversationHolder = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bot') }),
  z.object({ kind: z.literal('queue'), queue: ExceptionQueue, queuedAt: isoDate }),
  z.object({ kind: z.literal('reviewer'), reviewerId: z.string(), allocatedAt: isoDate }),
]);
export type ConversationHolder = z.infer<typeof ConversationHolder>;

export const END_TYPES = ['END', 'TERMINATE'] as const;
export const EndType = z.enum(END_TYPES);
export type EndType = z.infer<typeof EndType>;

/** A conversation as the assistant reads it (and every conversation event's data.conversation). */
export const ConversationView = z.object({
  id: z.string(),
  tenant: z.string(),
  botConversationId: z.string().nullable(),
  userId: z.string().describe('the patient (consumer) id'),
  holder: ConversationHolder,
  status: z.enum(['open', 'ended']),
  endType: EndType.nullable(),
  handoverReason: z.string().nullable(),
  messages: z.number().int(),
  createdOn: isoDate,
});
export type ConversationView = z.infer<typeof ConversationView>;

/** Body of `PUT /api/v1/configurations/{id}`: a tenant's configuration. */
export const PutConfigurationBody = z.strictObject({
  tenant: z.string().min(1, 'must not be empty').max(200),
  displayName: z.string().trim().min(1, 'must not be empty').max(200),
  emr: z
    .strictObject({
      system: z.string().min(1).max(200),
      recordUrl: z
        .url({ message: 'must be a full URL' })
        .refine(
          (value) => value.includes(EMR_REFERENCE_PLACEHOLDER),
          `must contain ${EMR_REFERENCE_PLACEHOLDER}, where the patient’s reference goes`,
        ),
    })
    .optional(),
  timezone: z.string().min(1).max(100).default('America/Los_Angeles'),
});
export type PutConfigurationBody = z.infer<typeof PutConfigurationBody>;

/** The message of a conversation load failure (spec 2 §8), filled with the error. */
export function conversationNotFound(error: string): string {
  return `Conversation not found - ${error}`;
}
