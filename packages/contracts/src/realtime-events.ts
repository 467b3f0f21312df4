import { z } from 'zod';
import {
  ERROR_EVENT,
  ErrorEventData,
  JOB_EVENT_TYPES,
  JobEventData,
  PING_EVENT,
  PONG_EVENT,
  SESSION_EVENT_TYPES,
  STATE_REQUESTS,
  SessionAnnouncement,
  type SubmissionType,
} from './realtime.ts';
import {
  IntentSubmission,
  MessageAnnotationPayload,
  PriorityPayload,
  RephraseQuestionPayload,
} from './workbench-payloads.ts';

/**
 * The data of every technician-socket event of spec 1 §7, keyed by the event's `type` (the
 * exception desk's conversation events are added with the exception desk). Payloads are loose:
 * fields the spec does not name pass through to the assistant untouched.
 */

/** `technician.session.pause` / `.activate`, 'ping' and 'pong' carry no data (or an empty object). */
export const EmptyEventData = z.looseObject({});

/**
 * `message.annotation.exception` and `hpi.prioritised.exception`: `{action:'exception',
 * conversationId, messageId, slot {id, code}}` (spec 1 §7). The ids are those the job carried: an
 * exception is how a technician hands back a job that cannot be done, so a job that lacks an id
 * can still be handed back (docs/decisions.md "Realtime work").
 */
export const ExceptionSubmissionData = z.looseObject({
  action: z.literal('exception'),
  conversationId: z.string().min(1).optional(),
  messageId: z.string().min(1).optional(),
  slot: z.object({ id: z.string(), code: z.string().min(1) }).optional(),
});

/** `rpa.robot.clear`: the manual step is done (`{action:'clear', conversationId?}`). */
export const RpaClearData = z.looseObject({
  action: z.literal('clear'),
  conversationId: z.string().min(1).optional(),
});

/**
 * `quinn.action.answer_quinn` with the actions spec 1 §7 names: `suggest_entity_reword` and
 * `suggest_entity_normalisation`.
 */
export const AnswerQuinnData = z.looseObject({
  action: z.enum(['suggest_entity_reword', 'suggest_entity_normalisation']),
  conversationId: z.string().min(1).optional(),
  messageId: z.string().min(1).optional(),
});

/**
 * `message.annotation`: the annotate-call body `{action, conversationId, messageId, entities,
 * slot {id, type, code, value}}`, or the intent submission `{message {conversationId, messageId,
 * userId}, entities}` of the agenda step (spec 1 §3, §7).
 */
export const MessageAnnotationData = z.union([
  MessageAnnotationPayload.loose(),
  IntentSubmission.loose(),
]);

/** The payload each submission carries besides the `jobId` of the job it answers. */
export const SUBMISSION_PAYLOADS: Readonly<Record<SubmissionType, z.ZodType>> = {
  'message.annotation': MessageAnnotationData,
  'message.annotation.exception': ExceptionSubmissionData,
  'message.rephrase.question': RephraseQuestionPayload.loose(),
  'hpi.prioritised': PriorityPayload.loose(),
  'hpi.prioritised.exception': ExceptionSubmissionData,
  'rpa.robot.clear': RpaClearData,
  'quinn.action.answer_quinn': AnswerQuinnData,
  // Spec 1 §7 names the event, not its body: anything with the job's id.
  'dh.portal.hitl.event': EmptyEventData,
};

/** Portal → server events of the federated and priority sockets, by type. */
export const PORTAL_EVENTS: Readonly<Record<string, z.ZodType>> = {
  [PONG_EVENT]: EmptyEventData,
  [STATE_REQUESTS.pause]: EmptyEventData,
  [STATE_REQUESTS.activate]: EmptyEventData,
  ...SUBMISSION_PAYLOADS,
};

/** Server → portal events of the technician sockets, by type. */
export const SERVER_EVENTS: Readonly<Record<string, z.ZodType>> = {
  [PING_EVENT]: EmptyEventData,
  [ERROR_EVENT]: ErrorEventData,
  ...Object.fromEntries(
    Object.values(SESSION_EVENT_TYPES).map((type) => [type, SessionAnnouncement]),
  ),
  ...Object.fromEntries(JOB_EVENT_TYPES.map((type) => [type, JobEventData])),
};
