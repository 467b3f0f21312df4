import {
  AnnotationExceptionPayload,
  IntentSubmission,
  MessageAnnotationPayload,
  PriorityPayload,
  RephraseQuestionPayload,
  SKIPPED_SLOT_VALUE,
  type AnnotationEntity,
  type Presence,
  type SubmittedEntity,
} from '@loopdesk/contracts/workbench-payloads.ts';
import { exceptionAction } from './purposes.ts';
import { COMPLETE_CHECKED_VALUE, COMPLETE_SLOT_CODE, isSkipped } from './validation.ts';

/** The ids every message payload names. */
export interface MessageRef {
  conversationId: string;
  messageId: string;
}

/** A job event's slot: `{id or _id, code}` (spec 1 §3). */
export interface JobSlot {
  id?: string;
  _id?: string;
  code: string;
}

/** The slot id of a job event, whichever of `id` and `_id` it carries. */
export function slotIdOf(slot: JobSlot): string {
  return slot.id ?? slot._id ?? '';
}

/** Reduces entities to what submissions carry: start, end, extract, category. */
export function toSubmittedEntities(
  entities: readonly Pick<AnnotationEntity, 'start' | 'end' | 'extract' | 'category'>[],
): SubmittedEntity[] {
  return entities.map(({ start, end, extract, category }) => ({ start, end, extract, category }));
}

/** What decides the submitted slot value. */
export interface SlotAnswer {
  slotCode: string;
  dataType?: string;
  booleanChoice?: Presence | null;
  skipped?: boolean;
  completeChecked?: boolean;
}

/**
 * The slot value to submit: '__skipped__' when skipped or unsure, the endorse/deny choice for a
 * boolean slot, 'true' for a ticked complete box, otherwise null (the entities carry the answer).
 */
export function slotValue(answer: SlotAnswer): string | null {
  if (isSkipped(answer)) {
    return SKIPPED_SLOT_VALUE;
  }
  if (answer.slotCode === COMPLETE_SLOT_CODE) {
    return answer.completeChecked === true ? COMPLETE_CHECKED_VALUE : null;
  }
  if (answer.dataType === 'boolean') {
    return answer.booleanChoice ?? null;
  }
  return null;
}

/** Builds a message.annotation payload (spec 1 §7); throws if a field breaks the contract. */
export function buildAnnotationPayload(input: {
  action: string;
  message: MessageRef;
  userId?: string;
  entities: readonly AnnotationEntity[];
  slot: JobSlot & { type: string };
  value: string | null;
}): MessageAnnotationPayload {
  return MessageAnnotationPayload.parse({
    action: input.action,
    conversationId: input.message.conversationId,
    messageId: input.message.messageId,
    ...(input.userId === undefined ? {} : { userId: input.userId }),
    entities: toSubmittedEntities(input.entities),
    slot: {
      id: slotIdOf(input.slot),
      type: input.slot.type,
      code: input.slot.code,
      value: input.value,
    },
  });
}

/** Builds the exception payload `{action:'exception', conversationId, messageId, slot {id, code}}`. */
export function buildExceptionPayload(input: {
  message: MessageRef;
  slot: JobSlot;
}): AnnotationExceptionPayload {
  return AnnotationExceptionPayload.parse({
    action: 'exception',
    conversationId: input.message.conversationId,
    messageId: input.message.messageId,
    slot: { id: slotIdOf(input.slot), code: input.slot.code },
  });
}

/**
 * Builds the exception of a purpose panel: a message.annotation with no entities whose action is
 * 'suggest_escalation', or 'suggest_forget' when a custom exception event is used.
 */
export function buildPurposeExceptionPayload(input: {
  message: MessageRef;
  userId?: string;
  slot: JobSlot & { type: string };
  customEvent: boolean;
}): MessageAnnotationPayload {
  return buildAnnotationPayload({
    ...input,
    action: exceptionAction(input.customEvent),
    entities: [],
    value: null,
  });
}

/** Builds the rephrase payload with replyType 'REPHRASE' (spec 1 §7). */
export function buildRephrasePayload(input: {
  conversationId: string;
  recipientId: string;
  question: string;
  replyTo: string;
}): RephraseQuestionPayload {
  return RephraseQuestionPayload.parse({
    conversationId: input.conversationId,
    recipientId: input.recipientId,
    message: input.question,
    replyType: 'REPHRASE',
    replyTo: input.replyTo,
  });
}

/** Builds the priority payload `{action:'set_priority', conversationId, priority}` (spec 1 §7). */
export function buildPriorityPayload(input: {
  conversationId: string;
  priority: string;
}): PriorityPayload {
  return PriorityPayload.parse({
    action: 'set_priority',
    conversationId: input.conversationId,
    priority: input.priority,
  });
}

/** Builds the intent submission `{message {conversationId, messageId, userId}, entities}`. */
export function buildIntentSubmission(input: {
  message: MessageRef;
  userId: string;
  entities: readonly AnnotationEntity[];
}): IntentSubmission {
  return IntentSubmission.parse({
    message: {
      conversationId: input.message.conversationId,
      messageId: input.message.messageId,
      userId: input.userId,
    },
    entities: toSubmittedEntities(input.entities),
  });
}
