import { z } from 'zod';
import {
  ConversationMessage,
  EndType,
  ExceptionQueue,
  ExternalId,
  MANUAL_REPLY_TYPE,
} from './conversations.ts';

/**
 * The exception desk (spec 2 §2 Exception Jobs, §3, §4 Exception events; spec 1 §7): a medical
 * reviewer holds up to N live conversations the assistant handed over, replies by hand, hands
 * them back or ends them. Events travel on the `/ws/exceptions` socket as CloudEvents.
 */

/** Privilege for the restricted exceptions queue (docs/decisions.md "Exception desk"). */
export const RESTRICTED_EXCEPTIONS_PRIVILEGE = 'jobs:exception:restricted';

/** Server → portal events of the exception session (spec 1 §7). */
export const EXCEPTION_EVENTS = {
  added: 'technician.session.conversation.added',
  switched: 'technician.session.conversation.switched',
  ended: 'technician.session.conversation.ended',
  handedBack: 'technician.session.conversation.handedback',
  messageAdded: 'technician.session.conversation.message.added',
  manualResponded: 'message.manual.responded',
  job: 'exception.job',
} as const;

/** Portal → server requests of the exception session (spec 1 §7). */
export const EXCEPTION_REQUESTS = {
  switch: 'technician.session.conversation.switch',
  handback: 'technician.session.conversation.handback',
  end: 'technician.session.conversation.end',
  manualResponse: 'message.manual.response',
} as const;
export const EXCEPTION_REQUEST_TYPES = Object.values(EXCEPTION_REQUESTS);

/** Conversation in an exception session (spec 2 §3): the avatar queue's item. */
export const ExceptionConversation = z.object({
  userId: z.string().describe('the patient'),
  conversationId: z.string(),
  botConversationId: z.string().nullable(),
  tenant: z.string(),
  read: z.boolean(),
  name: z.object({ given: z.string(), family: z.string() }),
  queue: ExceptionQueue,
  reason: z.string().nullable().describe('why the assistant handed it over'),
  allocatedAt: z.string(),
  waitingSince: z
    .string()
    .optional()
    .describe('when the assistant handed it over: the patient has waited for a human since'),
  redFlags: z
    .array(z.string())
    .optional()
    .describe('the red flags found in what the patient wrote (observation names, issue 20)'),
});
export type ExceptionConversation = z.infer<typeof ExceptionConversation>;

// ---------------------------------------------------------------------------------- requests

export const SwitchRequest = z.object({ conversationId: ExternalId });
export type SwitchRequest = z.infer<typeof SwitchRequest>;

export const HandbackRequest = z.object({ conversationId: ExternalId });
export type HandbackRequest = z.infer<typeof HandbackRequest>;

export const EndRequest = z.object({
  conversationId: ExternalId,
  type: EndType,
  appointmentId: z.uuid({ message: 'must be the id of the scheduled appointment' }).optional(),
});
export type EndRequest = z.infer<typeof EndRequest>;

const replyText = z
  .string({ message: 'is required: type the reply' })
  .max(5000, 'must be at most 5000 characters');

/** Manual response (spec 1 §3 / 2 §3): conversationId, recipientId, replyTo, message, MANUAL. */
export const ManualResponse = z.object({
  conversationId: ExternalId,
  recipientId: z.string().min(1).max(200).optional(),
  replyTo: z.string().max(200).optional(),
  message: replyText,
  replyType: z.literal(MANUAL_REPLY_TYPE).default(MANUAL_REPLY_TYPE),
  slots: z.unknown().optional(),
  flags: z.unknown().optional(),
});
export type ManualResponse = z.input<typeof ManualResponse>;

/** Body of `POST /internal/conversations/{id}/_respond` (spec 1 §7, 2 §7). */
export const RespondBody = ManualResponse.extend({ conversationId: ExternalId.optional() });
export type RespondBody = z.input<typeof RespondBody>;

// ---------------------------------------------------------------------------------- events

export const ConversationAddedData = z.object({ conversation: ExceptionConversation });
export type ConversationAddedData = z.infer<typeof ConversationAddedData>;

export const ConversationSwitchedData = z.object({ conversationId: z.string() });
export type ConversationSwitchedData = z.infer<typeof ConversationSwitchedData>;

export const ConversationEndedData = z.object({
  conversationId: z.string(),
  type: EndType.nullable().describe('null when it was taken away rather than ended'),
  reason: z
    .enum(['ended', 'handed-back', 'rebalanced'])
    .describe('rebalanced: taken away because the session lost it (it went back to the queue)'),
});
export type ConversationEndedData = z.infer<typeof ConversationEndedData>;

export const ConversationHandedBackData = z.object({ conversationId: z.string() });
export type ConversationHandedBackData = z.infer<typeof ConversationHandedBackData>;

export const MessageAddedData = z.object({
  conversationId: z.string(),
  message: ConversationMessage,
});
export type MessageAddedData = z.infer<typeof MessageAddedData>;

export const ManualRespondedData = z.object({
  conversationId: z.string(),
  message: ConversationMessage,
});
export type ManualRespondedData = z.infer<typeof ManualRespondedData>;

/** `GET /internal/conversations/_queued`: the caller's conversations and the current one. */
export const QueuedConversations = z.object({
  items: z.array(ExceptionConversation),
  current: z.string().nullable(),
  capacity: z.number().int(),
});
export type QueuedConversations = z.infer<typeof QueuedConversations>;

/** `GET /internal/conversations/_dequeue`: the oldest waiting conversation, now the caller's. */
export const DequeuedConversation = z.object({ item: ExceptionConversation.nullable() });
export type DequeuedConversation = z.infer<typeof DequeuedConversation>;

// ---------------------------------------------------------------------------------- messages

/** Texts the exception screen shows (spec 2 §2, §5). */
export const EXCEPTION_TEXTS = {
  waitingForMessage: 'Waiting for next message...',
  waitingForConversation: 'Waiting for a conversation to be allocated.',
  manualInput: 'Manual input (USE WITH CAUTION)',
  endAndSchedule: 'End and schedule appointment',
  terminate: 'Terminate encounter',
} as const;

/** Refusals of the desk: each says what to do instead, and changes nothing. */
export const EXCEPTION_ERRORS = {
  emptyReply: 'A manual reply is sent only if it is not empty: type the reply first.',
  notHolder:
    'You do not hold this conversation (it was handed back, ended, or given to another reviewer): nothing was sent.',
  ended: 'This conversation has ended: nothing was sent.',
  noSession:
    'Open the Exception Jobs screen and press Resume first: conversations go only to a reviewer whose session is on.',
  atCapacity: (capacity: number) =>
    `You already hold ${capacity} conversations, the most one reviewer may hold: end or hand one back first.`,
  restricted:
    'This conversation is in the restricted exceptions queue: it needs the jobs:exception:restricted privilege.',
  restrictedPatient:
    'This patient’s conversations are in the restricted exceptions queue: it needs the jobs:exception:restricted privilege.',
} as const;
