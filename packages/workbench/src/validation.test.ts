import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { describe, expect, it } from 'vitest';
import {
  ANNOTATE_AGENDA_MESSAGE,
  ANNOTATE_INTENT_MESSAGE,
  ANNOTATE_SLOT_OR_PASS_MESSAGE,
  ANNOTATE_TARGET_SLOT_MESSAGE,
  ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
  COMPLETE_BY_CHECKBOX_MESSAGE,
  CORRECTLY_ANNOTATED_MESSAGE,
  ENTITIES_DO_NOT_MATCH_MESSAGE,
  ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE,
  SELECT_ENDORSES_DENIES_MESSAGE,
  SELECT_QUESTION_MESSAGE,
  SELECT_YES_NO_MESSAGE,
  validateAgendaStep,
  validateAgendaSubmit,
  validateAnnotationPayload,
  validateAnnotationSubmit,
  validateException,
  validateRephrase,
  type AnnotationSubmit,
} from './validation.ts';

const e = (start: number, end: number, category: string): AnnotationEntity => ({
  start,
  end,
  extract: 'x'.repeat(end - start),
  category,
});

describe('the spec strings are verbatim', () => {
  it.each([
    [SELECT_ENDORSES_DENIES_MESSAGE, 'You need to make a selection of endorses/denies.'],
    [SELECT_YES_NO_MESSAGE, 'You need to make a selection of yes/no.'],
    [
      ANNOTATE_TARGET_SLOT_MESSAGE,
      'You need to annotate the target slot to mark this as successful.',
    ],
    [
      ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
      'You need to annotate the target slot to mark this as successful or a single new intent.',
    ],
    [ANNOTATE_SLOT_OR_PASS_MESSAGE, 'You need to annotate an the slot or press pass'],
    [ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE, 'Only one patient description annotation is allowed.'],
    [CORRECTLY_ANNOTATED_MESSAGE, 'This message is correctly annotated.'],
    [SELECT_QUESTION_MESSAGE, 'Please select a question to continue.'],
    [COMPLETE_BY_CHECKBOX_MESSAGE, 'Can only complete by checking the box.'],
    [ANNOTATE_AGENDA_MESSAGE, 'Please ensure you annotate the agenda of the utterance.'],
    [ANNOTATE_INTENT_MESSAGE, 'You need to annotate an intent.'],
  ])('%s', (constant, quoted) => {
    expect(constant).toBe(quoted);
  });
});

const onsetSlot = { code: 'onset', data_type: 'string' };
const booleanSlot = { code: 'fever', data_type: 'boolean' };

describe('validation of a message-annotation submit (spec 1 §5, spec 2 §5)', () => {
  it.each<[string, AnnotationSubmit, string | null]>([
    // Boolean slots: endorse or deny is required, with the panel's wording.
    [
      'boolean slot without a choice, exception panel',
      { screen: 'exception-annotation', slotSpecification: booleanSlot, entities: [] },
      SELECT_ENDORSES_DENIES_MESSAGE,
    ],
    [
      'boolean slot without a choice, older panel',
      { screen: 'legacy-annotation', slotSpecification: booleanSlot, entities: [] },
      SELECT_ENDORSES_DENIES_MESSAGE,
    ],
    [
      'boolean slot without a choice, federated panel',
      {
        screen: 'message-annotation',
        slotSpecification: booleanSlot,
        entities: [],
        booleanChoice: null,
      },
      SELECT_YES_NO_MESSAGE,
    ],
    [
      'boolean slot endorsed',
      {
        screen: 'exception-annotation',
        slotSpecification: booleanSlot,
        entities: [],
        booleanChoice: 'endorse',
      },
      null,
    ],
    [
      'boolean slot denied',
      {
        screen: 'message-annotation',
        slotSpecification: booleanSlot,
        entities: [],
        booleanChoice: 'deny',
      },
      null,
    ],
    [
      'boolean slot unsure counts as skipped',
      {
        screen: 'legacy-annotation',
        slotSpecification: booleanSlot,
        entities: [],
        booleanChoice: 'unsure',
      },
      null,
    ],
    [
      'boolean slot needs no target annotation',
      {
        screen: 'exception-annotation',
        slotSpecification: booleanSlot,
        entities: [e(0, 3, 'sx')],
        booleanChoice: 'endorse',
      },
      null,
    ],
    // Target slot.
    [
      'target not annotated, exception panel',
      { screen: 'exception-annotation', slotSpecification: onsetSlot, entities: [e(0, 3, 'sx')] },
      ANNOTATE_TARGET_SLOT_MESSAGE,
    ],
    [
      'target not annotated, federated panel (the longer variant)',
      { screen: 'message-annotation', slotSpecification: onsetSlot, entities: [e(0, 3, 'sx')] },
      ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
    ],
    [
      'target annotated',
      {
        screen: 'exception-annotation',
        slotSpecification: onsetSlot,
        entities: [e(0, 3, 'onset')],
      },
      null,
    ],
    [
      'a single intent on the span of another annotation',
      {
        screen: 'message-annotation',
        slotSpecification: onsetSlot,
        entities: [e(0, 3, 'intent'), e(0, 3, 'sx')],
      },
      null,
    ],
    [
      'two intents are not valid',
      {
        screen: 'message-annotation',
        slotSpecification: onsetSlot,
        entities: [e(0, 3, 'intent'), e(0, 3, 'sx'), e(4, 6, 'intent')],
      },
      ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
    ],
    [
      'a derived category',
      {
        screen: 'exception-annotation',
        slotSpecification: onsetSlot,
        entities: [e(0, 3, 'duration')],
        derived: ['duration'],
      },
      null,
    ],
    [
      'skipped (pass or patient unsure) needs no annotation',
      { screen: 'exception-annotation', slotSpecification: onsetSlot, entities: [], skipped: true },
      null,
    ],
    // Older screen: a standard non-boolean slot needs an annotation or pass.
    [
      'older panel, no annotation and no pass',
      { screen: 'legacy-annotation', slotSpecification: onsetSlot, entities: [] },
      ANNOTATE_SLOT_OR_PASS_MESSAGE,
    ],
    [
      'older panel, pass pressed',
      { screen: 'legacy-annotation', slotSpecification: onsetSlot, entities: [], skipped: true },
      null,
    ],
    [
      'older panel, annotations but not the target',
      { screen: 'legacy-annotation', slotSpecification: onsetSlot, entities: [e(0, 3, 'sx')] },
      ANNOTATE_TARGET_SLOT_MESSAGE,
    ],
    [
      'older panel, target annotated',
      { screen: 'legacy-annotation', slotSpecification: onsetSlot, entities: [e(0, 3, 'onset')] },
      null,
    ],
    // At most one patient_description, whatever else holds.
    [
      'two patient descriptions',
      {
        screen: 'exception-annotation',
        slotSpecification: { code: 'patient_description' },
        entities: [e(0, 3, 'patient_description'), e(4, 8, 'patient_description')],
      },
      ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE,
    ],
    [
      'two patient descriptions even when skipped',
      {
        screen: 'exception-annotation',
        slotSpecification: onsetSlot,
        entities: [e(0, 3, 'patient_description'), e(4, 8, 'patient_description')],
        skipped: true,
      },
      ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE,
    ],
    [
      'one patient description',
      {
        screen: 'exception-annotation',
        slotSpecification: { code: 'patient_description' },
        entities: [e(0, 3, 'patient_description')],
      },
      null,
    ],
    // The exception 'complete' slot.
    [
      'complete slot without its box',
      {
        screen: 'exception-annotation',
        slotSpecification: { code: 'complete' },
        entities: [e(0, 3, 'complete')],
      },
      COMPLETE_BY_CHECKBOX_MESSAGE,
    ],
    [
      'complete slot with its box ticked',
      {
        screen: 'exception-annotation',
        slotSpecification: { code: 'complete' },
        entities: [],
        completeChecked: true,
      },
      null,
    ],
  ])('%s', (_name, submit, expected) => {
    expect(validateAnnotationSubmit(submit)).toBe(expected);
  });
});

describe('an exception on a correctly annotated message is refused unless it is a discard', () => {
  it.each([
    ['correctly annotated, not a discard', [e(0, 3, 'onset')], false, CORRECTLY_ANNOTATED_MESSAGE],
    ['correctly annotated, a discard', [e(0, 3, 'onset')], true, null],
    ['not annotated', [e(0, 3, 'sx')], false, null],
    [
      'target annotated but two patient descriptions',
      [e(0, 3, 'onset'), e(4, 6, 'patient_description'), e(7, 9, 'patient_description')],
      false,
      null,
    ],
    ['two intents', [e(0, 3, 'onset'), e(4, 6, 'intent'), e(7, 9, 'intent')], false, null],
  ])('%s', (_name, entities, discard, expected) => {
    expect(validateException(entities, { slotCode: 'onset', discard })).toBe(expected);
  });
});

describe('rephrase needs a chosen question', () => {
  it.each([
    [undefined, SELECT_QUESTION_MESSAGE],
    [null, SELECT_QUESTION_MESSAGE],
    ['  ', SELECT_QUESTION_MESSAGE],
    ['How long have you had it?', null],
  ])('chosen %j', (chosen, expected) => {
    expect(validateRephrase(chosen)).toBe(expected);
  });
});

describe('two-step flow', () => {
  it.each([
    ['no annotation', [], ANNOTATE_AGENDA_MESSAGE],
    ['one annotation', [e(0, 3, 'sx')], null],
  ])('leaving the agenda step with %s', (_name, entities, expected) => {
    expect(validateAgendaStep(entities)).toBe(expected);
  });

  it.each([
    ['no annotation', [], [], ANNOTATE_INTENT_MESSAGE],
    ['annotations but no intent', [e(0, 3, 'sx')], [], ANNOTATE_INTENT_MESSAGE],
    ["an 'intent' annotation", [e(0, 3, 'intent')], [], null],
    ['a named intent from the menu', [e(0, 3, 'refill')], ['refill'], null],
  ])('agenda submit with %s', (_name, entities, intentNames, expected) => {
    expect(validateAgendaSubmit(entities, intentNames)).toBe(expected);
  });
});

describe('the server checks a submitted message.annotation with the same rules', () => {
  const text = 'pain since Monday';
  const since = { start: 5, end: 17, extract: 'since Monday', category: 'onset' };
  const context = { screen: 'exception-annotation' as const, slotSpecification: onsetSlot, text };
  const slot = { id: 's1', type: 'string', code: 'onset' };
  it.each([
    ['a target annotation', [since], null, null],
    ['no annotation and no value', [], null, ANNOTATE_TARGET_SLOT_MESSAGE],
    ["the value '__skipped__'", [], '__skipped__', null],
    [
      'an extract that is not the text at its offsets',
      [{ ...since, extract: 'since Tuesday' }],
      null,
      ENTITIES_DO_NOT_MATCH_MESSAGE,
    ],
    [
      'offsets past the end of the text',
      [{ ...since, start: 15, end: 27 }],
      null,
      ENTITIES_DO_NOT_MATCH_MESSAGE,
    ],
  ])('%s', (_name, entities, value, expected) => {
    expect(validateAnnotationPayload({ entities, slot: { ...slot, value } }, context)).toBe(
      expected,
    );
  });

  it.each([
    ['endorse', null],
    ['deny', null],
    [null, SELECT_ENDORSES_DENIES_MESSAGE],
    ['maybe', SELECT_ENDORSES_DENIES_MESSAGE],
  ])('a boolean slot with value %j', (value, expected) => {
    const payload = { entities: [], slot: { id: 's1', type: 'boolean', code: 'fever', value } };
    expect(
      validateAnnotationPayload(payload, {
        screen: 'exception-annotation',
        slotSpecification: booleanSlot,
      }),
    ).toBe(expected);
  });

  it("the complete slot is completed by the value 'true'", () => {
    const slotSpecification = { code: 'complete' };
    const payload = (value: string | null) => ({
      entities: [],
      slot: { id: 's1', type: 'boolean', code: 'complete', value },
    });
    expect(
      validateAnnotationPayload(payload('true'), {
        screen: 'exception-annotation',
        slotSpecification,
      }),
    ).toBeNull();
    expect(
      validateAnnotationPayload(payload(null), {
        screen: 'exception-annotation',
        slotSpecification,
      }),
    ).toBe(COMPLETE_BY_CHECKBOX_MESSAGE);
  });
});
