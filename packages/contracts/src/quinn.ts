import { z } from 'zod';
import { ERROR_RESPONSES, ErrorBody } from './errors.ts';
import { SubmissionType } from './realtime.ts';
import { IntentContextMenu, IntentSubmission } from './workbench-payloads.ts';

/**
 * The portal's questions to the assistant (spec 1 §7): an intent's context menu, a conversation's
 * memory and the message operations message.intents, message.next and message.redirect. The
 * portal asks Loopdesk (`/internal/quinn/...`); Loopdesk hands the question to the assistant
 * through the integration API (`GET /api/v1/requests`, long-polled) and answers the portal with
 * the assistant's answer (`POST /api/v1/requests/{id}/answer`). See docs/integration-api.md.
 */

/** The header that names the tenant (spec 1 §7 "X-Tenant-ID"). */
export const TENANT_HEADER = 'x-tenant-id';

const tenantValue = z
  .string()
  .trim()
  .min(1, 'must name the tenant of the job (its tenant field)')
  .max(200, 'must be at most 200 characters');

/** The tenant of the job, required on the context menu and memory calls. */
export const QuinnTenantHeaders = z.object({ [TENANT_HEADER]: tenantValue });
/** The message operations take the tenant from the header or from `?tenant=`. */
export const OptionalQuinnTenantHeaders = z.object({ [TENANT_HEADER]: tenantValue.optional() });
export const QuinnTenantQuery = z.object({ tenant: tenantValue.optional() });

export const IntentParams = z.object({
  intent: z
    .string()
    .trim()
    .min(1, 'must name an intent')
    .max(200, 'must be at most 200 characters'),
});
export const MemoryParams = z.object({
  id: z.string().trim().min(1, 'must be a conversation id').max(200),
});

/** What the portal can ask the assistant. */
export const ASSISTANT_REQUEST_KINDS = [
  'intent.context_menu',
  'conversation.memory',
  'message.intents',
  'message.next',
  'message.redirect',
] as const;
export const AssistantRequestKind = z.enum(ASSISTANT_REQUEST_KINDS);
export type AssistantRequestKind = z.infer<typeof AssistantRequestKind>;

/** The message operations of `POST /internal/quinn/messages/{operation}` (path not shown: ours). */
export const MESSAGE_OPERATIONS = ['intents', 'next', 'redirect'] as const;
export const MessageOperation = z.enum(MESSAGE_OPERATIONS, {
  message: `must be one of ${MESSAGE_OPERATIONS.join(', ')}`,
});
export type MessageOperation = z.infer<typeof MessageOperation>;

const id = (what: string) =>
  z
    .string({ message: `must be the ${what}` })
    .trim()
    .min(1, `must be the ${what}`)
    .max(200);

/** `message.next` (spec 1 §7): "next sends conversationId, userId". */
export const MessageNextBody = z.strictObject({
  conversationId: id('conversation id'),
  userId: id("patient's user id"),
});
export type MessageNextBody = z.infer<typeof MessageNextBody>;

/** `message.redirect` (spec 1 §7): "redirect adds messageId". */
export const MessageRedirectBody = MessageNextBody.extend({ messageId: id('message id') });
export type MessageRedirectBody = z.infer<typeof MessageRedirectBody>;

/** The body each operation takes; `intents` takes the intent submission (spec 1 §3). */
export const MESSAGE_OPERATION_BODIES = {
  intents: IntentSubmission,
  next: MessageNextBody,
  redirect: MessageRedirectBody,
} as const satisfies Record<MessageOperation, z.ZodType>;

export const OperationParams = z.object({ operation: MessageOperation });

/**
 * The body of `POST /internal/quinn/messages/{operation}`: one of MESSAGE_OPERATION_BODIES, chosen
 * by the path, so the handler checks it (and names the operation in its 400).
 */
export const MessageOperationBody = z
  .unknown()
  .describe('The body of message.{operation}: see MESSAGE_OPERATION_BODIES');

/** The portal's questions fail like any route, or with 502/504 when the assistant does. */
export const QUINN_ERROR_RESPONSES = {
  ...ERROR_RESPONSES,
  502: ErrorBody,
  504: ErrorBody,
} as const;

/**
 * The assistant's answer to a message operation: "an event that is then submitted on" (spec 1 §7).
 * The portal submits it on its socket, with the id of the job it holds.
 */
export const AnsweredEvent = z.object({
  type: SubmissionType,
  data: z.record(z.string(), z.unknown()),
});
export type AnsweredEvent = z.infer<typeof AnsweredEvent>;

/** What the assistant knows of a conversation (`POST /internal/quinn/conversations/{id}/_memory`). */
export const ConversationMemory = z.object({
  conversationId: z.string(),
  /** Slot code → what the assistant holds for it. */
  slots: z.record(z.string(), z.unknown()),
});
export type ConversationMemory = z.infer<typeof ConversationMemory>;

/** The body of each kind of request, as the assistant reads it. */
export const ASSISTANT_REQUEST_BODIES = {
  'intent.context_menu': z.object({ intent: z.string() }),
  'conversation.memory': z.object({ conversationId: z.string() }),
  'message.intents': IntentSubmission,
  'message.next': MessageNextBody,
  'message.redirect': MessageRedirectBody,
} as const satisfies Record<AssistantRequestKind, z.ZodType>;

/** The answer each kind of request needs from the assistant. */
export const ASSISTANT_ANSWERS = {
  'intent.context_menu': IntentContextMenu,
  'conversation.memory': ConversationMemory,
  'message.intents': AnsweredEvent,
  'message.next': AnsweredEvent,
  'message.redirect': AnsweredEvent,
} as const satisfies Record<AssistantRequestKind, z.ZodType>;

const isoDate = z.string().describe('ISO 8601 date-time');

/** A question waiting for the assistant (`GET /api/v1/requests`). */
export const AssistantRequestView = z.object({
  id: z.uuid(),
  kind: AssistantRequestKind,
  tenant: z.string(),
  body: z.record(z.string(), z.unknown()).describe('see ASSISTANT_REQUEST_BODIES for each kind'),
  createdAt: isoDate,
  expiresAt: isoDate.describe('an answer after this time is refused: the portal stopped waiting'),
});
export type AssistantRequestView = z.infer<typeof AssistantRequestView>;

/** Most seconds `GET /api/v1/requests` may wait for a question. */
export const MAX_REQUESTS_WAIT_SECONDS = 25;

/** Query of `GET /api/v1/requests`. */
export const RequestsQuery = z.object({
  wait: z.coerce
    .number({ message: `must be a number of seconds from 0 to ${MAX_REQUESTS_WAIT_SECONDS}` })
    .min(0, 'must be at least 0')
    .max(MAX_REQUESTS_WAIT_SECONDS, `must be at most ${MAX_REQUESTS_WAIT_SECONDS}`)
    .default(0)
    .describe('seconds to wait for a question when none is pending (long poll)'),
  limit: z.coerce
    .number({ message: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(20),
});
export type RequestsQuery = z.infer<typeof RequestsQuery>;

export const RequestList = z.object({ requests: z.array(AssistantRequestView) });
export type RequestList = z.infer<typeof RequestList>;

export const RequestIdParams = z.object({ id: z.uuid({ message: 'must be a request id (uuid)' }) });
export type RequestIdParams = z.infer<typeof RequestIdParams>;

/**
 * Why the assistant has no answer, when it is one the portal's caller can act on: `not_found`
 * when it does not know the conversation or the intent asked about (the caller gets a 404, not
 * a 502).
 */
export const AnswerFailureReason = z
  .enum(['not_found'])
  .describe('not_found: the assistant does not know the conversation or intent asked about');
export type AnswerFailureReason = z.infer<typeof AnswerFailureReason>;

/** Body of `POST /api/v1/requests/{id}/answer`: the answer, or why there is none. */
export const AnswerRequestBody = z.union(
  [
    z.strictObject({ answer: z.unknown().refine((value) => value !== undefined, 'is required') }),
    z.strictObject({
      error: z
        .string()
        .trim()
        .min(1, 'must say why there is no answer')
        .max(1000, 'must be at most 1000 characters'),
      reason: AnswerFailureReason.optional(),
    }),
  ],
  {
    message: 'must be {"answer": …} or {"error": "why there is no answer", "reason"?: "not_found"}',
  },
);
export type AnswerRequestBody = z.infer<typeof AnswerRequestBody>;

/** Where a request stands. */
export const AssistantRequestState = z.enum(['pending', 'answered', 'failed', 'expired']);
export type AssistantRequestState = z.infer<typeof AssistantRequestState>;

/** Answer of `POST /api/v1/requests/{id}/answer`. */
export const AnsweredRequestView = AssistantRequestView.extend({
  state: AssistantRequestState,
  answeredAt: isoDate.nullable(),
});
export type AnsweredRequestView = z.infer<typeof AnsweredRequestView>;
