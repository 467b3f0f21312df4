import { z } from 'zod';
import {
  ExternalId,
  ExternalReference,
  MessageDirection,
  PersonName,
  PersonSummary,
} from './conversations.ts';

/**
 * Direct messaging with customers in threads (spec 3 §2 "Direct messaging", §3 "Thread", "Thread
 * message", §4 thread lifecycle, §5, §7 "Direct messaging"): a thread is started, then open, then
 * archived; only one open thread per customer.
 */

const isoDate = z.string().describe('ISO 8601 date-time');

/** The largest message text (not shown in the spec). */
export const THREAD_MESSAGE_MAX_CHARS = 5000;

/** A direct message's text (spec 3 §5: "non-empty trimmed text"). */
const messageText = z
  .string({ message: 'is required: type the message' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(THREAD_MESSAGE_MAX_CHARS, {
    message: `must be at most ${THREAD_MESSAGE_MAX_CHARS} characters`,
  });

/**
 * No body: nothing, or `{}` (archive and mark-as-read say everything in their path). Nullish,
 * because Fastify hands a body-less DELETE to the validator as null.
 */
export const NoBody = z.strictObject({}).nullish();
export type NoBody = z.infer<typeof NoBody>;

/** Who wrote a thread message (spec 3 §3 "Thread message": author); its fields are not shown. */
export const ThreadAuthor = z.looseObject({ id: z.string(), name: z.string().optional() });
export type ThreadAuthor = z.infer<typeof ThreadAuthor>;

/** Thread message (spec 3 §3): id, content, createdOn, direction (IN or OUT), author. */
export const ThreadMessage = z.object({
  id: z.string(),
  content: z.string(),
  createdOn: isoDate,
  direction: MessageDirection,
  author: ThreadAuthor,
});
export type ThreadMessage = z.infer<typeof ThreadMessage>;

/** Thread (spec 3 §3): id, createdOn, customer (id, name.given, name.family), messages, unreadIn, unreadOut. */
export const Thread = z.object({
  id: z.string(),
  createdOn: isoDate,
  customer: PersonSummary.pick({ id: true, name: true }),
  messages: z
    .array(ThreadMessage)
    .describe('its latest messages; all of them come from …/messages'),
  unreadIn: z.number().int().nonnegative().describe('customer messages staff have not read'),
  unreadOut: z.number().int().nonnegative().describe('staff messages the customer has not read'),
});
export type Thread = z.infer<typeof Thread>;

/** `GET /internal/messaging/groups` (spec 3 §7 "open threads"). */
export const ThreadList = z.object({ items: z.array(Thread) });
export type ThreadList = z.infer<typeof ThreadList>;

/** Params of `/internal/messaging/groups/{id}…` (spec 3 §7). */
export const ThreadIdParams = z.object({ id: z.string().min(1).max(200) });
export type ThreadIdParams = z.infer<typeof ThreadIdParams>;

/** Body of `POST /internal/messaging/groups/_upsert` (spec 3 §7): content and customer {system 'email', code 'id', value}. */
export const StartThreadBody = z.object({
  content: messageText,
  customer: z.object({
    system: z.literal('email', { message: "must be 'email'" }),
    code: z.literal('id', { message: "must be 'id'" }),
    value: z.email({ message: 'must be the customer’s email address' }),
  }),
});
export type StartThreadBody = z.input<typeof StartThreadBody>;

/** Answer of `POST /internal/messaging/groups/_upsert` (spec 3 §7: "response id, customerId, messageId"). */
export const StartedThread = z.object({
  id: z.string().describe('the thread'),
  customerId: z.string(),
  messageId: z.string().describe('the first message'),
});
export type StartedThread = z.infer<typeof StartedThread>;

/** Answer of `DELETE /internal/messaging/groups/{id}` (spec 3 §7 "archive"): the thread left the open list. */
export const ArchivedThread = z.object({ id: z.string(), archivedOn: isoDate });
export type ArchivedThread = z.infer<typeof ArchivedThread>;

/** `GET /internal/messaging/groups/{id}/messages` (spec 3 §7: "response items"), oldest first. */
export const ThreadMessageList = z.object({ items: z.array(ThreadMessage) });
export type ThreadMessageList = z.infer<typeof ThreadMessageList>;

/** Body of `POST /internal/messaging/groups/{id}/messages` (spec 3 §7): content and customer {system 'decoded', code 'id', value}. */
export const SendThreadMessageBody = z.object({
  content: messageText,
  customer: z.object({
    system: z.literal('decoded', { message: "must be 'decoded'" }),
    code: z.literal('id', { message: "must be 'id'" }),
    value: z.string().min(1, { message: 'must be the customer’s id' }).max(200),
  }),
});
export type SendThreadMessageBody = z.input<typeof SendThreadMessageBody>;

/** The spec's messages of direct messaging (3 §8), verbatim; `{error}` is the failure's text. */
export const MESSAGING_MESSAGES = {
  openThreadExists: 'There are one or more open messaging threads. Please close it to continue.',
  startFailed: 'Error trying to start a direct messaging thread. {error}',
  archiveFailed: 'Error trying to archive thread. {error}',
  customerLookupFailed: 'Error retrieving customer information - {error}',
  threadsLoadFailed: 'Error loading your open threads. ',
  messagesLoadFailed: 'Error loading your open thread messages, try again later. ',
  userLoadFailed: 'Error loading user. ',
  sendFailed: 'Error sending message please try again later - {error}',
} as const;

/** How often the direct messaging screen asks for new threads and messages (not in the spec). */
export const MESSAGING_POLL_MS = 5000;

// ---------------------------------------------------------------------------------------------
// Integration API (/api/v1): the assistant registers patients, delivers staff messages (from the
// outbox events below) and brings back the patients' replies.

/** Params of `/api/v1/consumers/{id}`. */
export const ConsumerIdParams = z.object({ id: ExternalId });
export type ConsumerIdParams = z.infer<typeof ConsumerIdParams>;

/** Body of `PUT /api/v1/consumers/{id}`: registers (or updates) a patient staff may message. */
export const PutConsumerBody = z.strictObject({
  tenant: z.string().min(1, 'must not be empty').max(200),
  name: PersonName,
  email: z.email({ message: 'must be an email address' }),
  externalReferences: z.array(ExternalReference).max(20).default([]),
});
export type PutConsumerBody = z.input<typeof PutConsumerBody>;

/** Answer of `PUT /api/v1/consumers/{id}`. */
export const ConsumerRegistered = z.object({
  id: z.string(),
  tenant: z.string(),
  name: z.object({ given: z.string(), family: z.string() }),
  email: z.string(),
});
export type ConsumerRegistered = z.infer<typeof ConsumerRegistered>;

/** Params of `/api/v1/threads/{id}/…`. */
export const ThreadParams = z.object({ id: z.uuid({ message: 'must be a thread id (a UUID)' }) });
export type ThreadParams = z.infer<typeof ThreadParams>;

/**
 * Body of `POST /api/v1/threads/{id}/messages`: the patient's reply (IN). The patient has read the
 * staff messages before it, so they stop counting in `unreadOut`.
 */
export const PatientReplyBody = z.strictObject({
  id: ExternalId.describe('your message id; sending the same id again is a safe retry'),
  content: messageText,
});
export type PatientReplyBody = z.input<typeof PatientReplyBody>;

/** The thread as an outbox event carries it. */
export const ThreadRef = z.object({ id: z.string(), customerId: z.string() });
export type ThreadRef = z.infer<typeof ThreadRef>;

/** `data` of the `message.sent` event: a staff message to deliver to the patient. */
export const MessageSentData = z.object({ thread: ThreadRef, message: ThreadMessage });
export type MessageSentData = z.infer<typeof MessageSentData>;

/** `data` of the `thread.archived` event. */
export const ThreadArchivedData = z.object({ thread: ThreadRef, archivedOn: isoDate });
export type ThreadArchivedData = z.infer<typeof ThreadArchivedData>;
