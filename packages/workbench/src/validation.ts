import {
  SKIPPED_SLOT_VALUE,
  type AnnotationEntity,
  type MessageAnnotationPayload,
  type Presence,
  type SlotSpecification,
} from '@loopdesk/contracts/workbench-payloads.ts';
import { intentEntities, isTargetAnnotated, type TargetContext } from './target.ts';

/** Boolean slot without endorse/deny, older annotation and exception panels (spec 1 §5). */
export const SELECT_ENDORSES_DENIES_MESSAGE = 'You need to make a selection of endorses/denies.';
/** Boolean slot without a choice, federated message annotation panel (spec 1 §5 variant). */
export const SELECT_YES_NO_MESSAGE = 'You need to make a selection of yes/no.';
/** Target slot not annotated, exception panel (spec 1 §5, spec 2 §5). */
export const ANNOTATE_TARGET_SLOT_MESSAGE =
  'You need to annotate the target slot to mark this as successful.';
/** Target slot not annotated where a new intent is also accepted (the longer variant, spec 1 §5). */
export const ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE =
  'You need to annotate the target slot to mark this as successful or a single new intent.';
/** Standard non-boolean slot with neither annotation nor pass; spelt as the spec quotes it. */
export const ANNOTATE_SLOT_OR_PASS_MESSAGE = 'You need to annotate an the slot or press pass';
/** More than one patient_description annotation (spec 1 §5, spec 2 §5). */
export const ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE =
  'Only one patient description annotation is allowed.';
/** Exception raised on a correctly annotated message that is not a discard (spec 1 §5). */
export const CORRECTLY_ANNOTATED_MESSAGE = 'This message is correctly annotated.';
/** Rephrase submitted with no option chosen (spec 1 §5). */
export const SELECT_QUESTION_MESSAGE = 'Please select a question to continue.';
/** The exception 'complete' slot submitted without its box ticked (spec 2 §5). */
export const COMPLETE_BY_CHECKBOX_MESSAGE = 'Can only complete by checking the box.';
/** Two-step flow leaving the agenda step with no annotation (spec 1 §5). */
export const ANNOTATE_AGENDA_MESSAGE = 'Please ensure you annotate the agenda of the utterance.';
/** Agenda submit without an intent annotation (spec 1 §5 variant, spec 2 §5). */
export const ANNOTATE_INTENT_MESSAGE = 'You need to annotate an intent.';

/** Code of the exception slot that only its checkbox completes (spec 2 §5). */
export const COMPLETE_SLOT_CODE = 'complete';
/** Slot value meaning the 'complete' box was ticked. */
export const COMPLETE_CHECKED_VALUE = 'true';
/** Category limited to one annotation per message. */
export const PATIENT_DESCRIPTION = 'patient_description';

/**
 * Which panel submits, since the spec's wording differs between them:
 * - 'message-annotation': the federated generic annotation panel (yes/no; target or new intent);
 * - 'exception-annotation': the exception panel (endorses/denies; target slot);
 * - 'legacy-annotation': the older screen with a toggle and pass (endorses/denies; annotate or pass).
 */
export type SubmitScreen = 'message-annotation' | 'exception-annotation' | 'legacy-annotation';

/** What a submit of an annotated message is judged on. */
export interface AnnotationSubmit extends Omit<TargetContext, 'slotCode'> {
  screen: SubmitScreen;
  slotSpecification: Pick<SlotSpecification, 'code' | 'data_type'>;
  entities: readonly AnnotationEntity[];
  /** The endorse/deny/unsure choice of a boolean slot. */
  booleanChoice?: Presence | null;
  /** Pass or patient unsure was confirmed: the value '__skipped__' is submitted. */
  skipped?: boolean;
  /** The box of the exception 'complete' slot. */
  completeChecked?: boolean;
}

/** Whether a slot takes a boolean endorse/deny answer. */
export function isBooleanSlot(slot: Pick<SlotSpecification, 'data_type'>): boolean {
  return slot.data_type === 'boolean';
}

/** Whether a submit counts as skipped: pass/patient unsure, or the boolean choice 'unsure'. */
export function isSkipped(submit: Pick<AnnotationSubmit, 'skipped' | 'booleanChoice'>): boolean {
  return submit.skipped === true || submit.booleanChoice === 'unsure';
}

/** Returns the message for more than one patient_description annotation, else null. */
export function validatePatientDescriptions(entities: readonly AnnotationEntity[]): string | null {
  const count = entities.filter((e) => e.category === PATIENT_DESCRIPTION).length;
  return count > 1 ? ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE : null;
}

/**
 * Returns the first rule a message-annotation submit breaks (spec 1 §5, spec 2 §5), or null when
 * it may be sent.
 */
export function validateAnnotationSubmit(submit: AnnotationSubmit): string | null {
  const { screen, slotSpecification, entities } = submit;
  if (slotSpecification.code === COMPLETE_SLOT_CODE) {
    return submit.completeChecked === true ? null : COMPLETE_BY_CHECKBOX_MESSAGE;
  }
  const patientDescriptions = validatePatientDescriptions(entities);
  if (patientDescriptions !== null) {
    return patientDescriptions;
  }
  if (isSkipped(submit)) {
    return null;
  }
  if (isBooleanSlot(slotSpecification)) {
    if (submit.booleanChoice === 'endorse' || submit.booleanChoice === 'deny') {
      return null;
    }
    return screen === 'message-annotation' ? SELECT_YES_NO_MESSAGE : SELECT_ENDORSES_DENIES_MESSAGE;
  }
  if (screen === 'legacy-annotation' && entities.length === 0) {
    return ANNOTATE_SLOT_OR_PASS_MESSAGE;
  }
  if (isTargetAnnotated(entities, { ...submit, slotCode: slotSpecification.code })) {
    return null;
  }
  return screen === 'message-annotation'
    ? ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE
    : ANNOTATE_TARGET_SLOT_MESSAGE;
}

/** Whether a message is correctly annotated: target annotated and one patient_description at most. */
export function isCorrectlyAnnotated(
  entities: readonly AnnotationEntity[],
  context: TargetContext,
): boolean {
  return validatePatientDescriptions(entities) === null && isTargetAnnotated(entities, context);
}

/** Returns the refusal of an exception on a correctly annotated message unless it is a discard. */
export function validateException(
  entities: readonly AnnotationEntity[],
  context: TargetContext & { discard?: boolean },
): string | null {
  return context.discard !== true && isCorrectlyAnnotated(entities, context)
    ? CORRECTLY_ANNOTATED_MESSAGE
    : null;
}

/** Returns the message for a rephrase submitted with no question chosen, else null. */
export function validateRephrase(chosen: string | null | undefined): string | null {
  return chosen === null || chosen === undefined || chosen.trim() === ''
    ? SELECT_QUESTION_MESSAGE
    : null;
}

/** Two-step flow, leaving step 0: at least one annotation is needed. */
export function validateAgendaStep(entities: readonly AnnotationEntity[]): string | null {
  return entities.length === 0 ? ANNOTATE_AGENDA_MESSAGE : null;
}

/** Agenda submit (intent annotation): at least one intent annotation is needed. */
export function validateAgendaSubmit(
  entities: readonly AnnotationEntity[],
  intentCategories: readonly string[] = [],
): string | null {
  return intentEntities(entities, intentCategories).length === 0 ? ANNOTATE_INTENT_MESSAGE : null;
}

/** Whether every entity's extract is exactly the message text between its offsets. */
export function entitiesMatchText(
  text: string,
  entities: readonly Pick<AnnotationEntity, 'start' | 'end' | 'extract'>[],
): boolean {
  return entities.every(
    (e) => e.end <= text.length && e.start < e.end && text.slice(e.start, e.end) === e.extract,
  );
}

/** What the server knows of the job a message.annotation submission answers. */
export interface SubmissionContext extends Omit<TargetContext, 'slotCode'> {
  screen: SubmitScreen;
  slotSpecification: Pick<SlotSpecification, 'code' | 'data_type'>;
  /** The message text, to check offsets and extracts. */
  text?: string;
}

/** Message shown when submitted entities do not match the message text (server only). */
export const ENTITIES_DO_NOT_MATCH_MESSAGE = 'Annotations do not match the message text.';

/**
 * Server-side check of a parsed message.annotation payload with the same rules as the panel:
 * slot.value carries the boolean choice, '__skipped__', or 'true' for the complete box.
 */
export function validateAnnotationPayload(
  payload: Pick<MessageAnnotationPayload, 'entities' | 'slot'>,
  context: SubmissionContext,
): string | null {
  if (context.text !== undefined && !entitiesMatchText(context.text, payload.entities)) {
    return ENTITIES_DO_NOT_MATCH_MESSAGE;
  }
  const value = payload.slot.value;
  return validateAnnotationSubmit({
    ...context,
    entities: payload.entities,
    booleanChoice: value === 'endorse' || value === 'deny' ? value : null,
    skipped: value === SKIPPED_SLOT_VALUE,
    completeChecked: value === COMPLETE_CHECKED_VALUE,
  });
}
