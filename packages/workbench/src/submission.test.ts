import { describe, expect, it } from 'vitest';
import {
  answerActionMessage,
  checkSubmission,
  CONCEPT_MESSAGE,
  EXCEPTION_ACTION_MESSAGE,
  PRIORITY_CHOICE_MESSAGE,
  purposeExceptionMessage,
  REPHRASE_OPTION_MESSAGE,
  REWORD_TEXT_MESSAGE,
  rewordingsMissingMessage,
  RPA_CLEAR_MESSAGE,
  slotMismatchMessage,
  type HeldJob,
} from './submission.ts';
import {
  ANNOTATE_INTENT_MESSAGE,
  ANNOTATE_SLOT_OR_PASS_MESSAGE,
  ANNOTATE_TARGET_SLOT_MESSAGE,
  ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
  ENTITIES_DO_NOT_MATCH_MESSAGE,
  ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE,
  SELECT_ENDORSES_DENIES_MESSAGE,
  SELECT_YES_NO_MESSAGE,
} from './validation.ts';

const TEXT = 'I feel rough, my back hurts since Monday';
// 'feel rough' 2..12, 'back hurts' 17..27, 'since Monday' 28..40
const turn = { content: TEXT, messageId: 'm-1', metadata: { conversationId: 'c-1' } };
const messageJob = (
  slot: { code: string; data_type?: string; multiplicity?: string },
  extra: Record<string, unknown> = {},
): HeldJob => ({
  type: 'message.annotation.job',
  data: {
    lastTurn: turn,
    slotSpecification: slot,
    slot: { id: `slot-${slot.code}`, code: slot.code },
    ...extra,
  },
});
const full = { job: { purpose: 'full' } };
const entity = (start: number, end: number, category: string) => ({
  start,
  end,
  extract: TEXT.slice(start, end),
  category,
});
const annotation = (
  code: string,
  entities: readonly ReturnType<typeof entity>[],
  value: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  action: 'answer',
  conversationId: 'c-1',
  messageId: 'm-1',
  entities,
  slot: { id: `slot-${code}`, type: 'text', code, value },
  ...extra,
});

describe('the server checks a message.annotation against the rules of its job', () => {
  it.each<[string, HeldJob, Record<string, unknown>, string | null]>([
    [
      'generic screen: the target slot annotated passes',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [entity(28, 40, 'duration')]),
      null,
    ],
    [
      'generic screen: a miss gets the longer wording',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [entity(17, 27, 'sx')]),
      ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
    ],
    [
      'generic screen: one new intent sharing its span with an entity counts',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [entity(17, 27, 'hpi'), entity(17, 27, 'sx')]),
      null,
    ],
    [
      'generic screen: two intents never count',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [
        entity(17, 27, 'hpi'),
        entity(17, 27, 'sx'),
        entity(28, 40, 'duration'),
        entity(2, 12, 'sick_note'),
      ]),
      ANNOTATE_TARGET_SLOT_OR_INTENT_MESSAGE,
    ],
    [
      'generic screen: a boolean slot needs yes or no',
      messageJob({ code: 'fever', data_type: 'boolean' }, full),
      annotation('fever', []),
      SELECT_YES_NO_MESSAGE,
    ],
    [
      'older screen: nothing annotated and no pass',
      messageJob({ code: 'duration', multiplicity: '0..1' }),
      annotation('duration', []),
      ANNOTATE_SLOT_OR_PASS_MESSAGE,
    ],
    [
      'older screen: annotated, but not the target',
      messageJob({ code: 'duration', multiplicity: '0..1' }),
      annotation('duration', [entity(17, 27, 'sx')]),
      ANNOTATE_TARGET_SLOT_MESSAGE,
    ],
    [
      'older screen: patient unsure passes',
      messageJob({ code: 'duration', multiplicity: '0..1' }),
      annotation('duration', [], '__skipped__'),
      null,
    ],
    [
      'older screen: a boolean slot needs endorses/denies',
      messageJob({ code: 'fever', data_type: 'boolean' }),
      annotation('fever', []),
      SELECT_ENDORSES_DENIES_MESSAGE,
    ],
    [
      'exception task: the short target wording',
      { ...messageJob({ code: 'duration' }, full), type: 'exception.job' },
      annotation('duration', [entity(17, 27, 'sx')]),
      ANNOTATE_TARGET_SLOT_MESSAGE,
    ],
    [
      'one patient_description only',
      messageJob({ code: 'patient_description' }, full),
      annotation('patient_description', [
        entity(2, 12, 'patient_description'),
        entity(17, 27, 'patient_description'),
      ]),
      ONLY_ONE_PATIENT_DESCRIPTION_MESSAGE,
    ],
    [
      'offsets must match the message',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [{ ...entity(28, 40, 'duration'), start: 27 }]),
      ENTITIES_DO_NOT_MATCH_MESSAGE,
    ],
    [
      "the slot must be the job's",
      messageJob({ code: 'duration' }, full),
      annotation('severity', [entity(28, 40, 'duration')]),
      slotMismatchMessage('severity', 'duration'),
    ],
    [
      'a derived category of the intent context menu counts as the target',
      { ...messageJob({ code: 'duration' }, full), contextMenu: { menu: {}, derived: ['sx'] } },
      annotation('duration', [entity(17, 27, 'sx')]),
      null,
    ],
    [
      'a reword slot needs its rewordings',
      messageJob({ code: 'current_complaint' }, full),
      annotation('current_complaint', [entity(17, 27, 'current_complaint')]),
      rewordingsMissingMessage(['back hurts']),
    ],
    [
      'a reword slot with its rewordings passes',
      messageJob({ code: 'current_complaint' }, full),
      annotation('current_complaint', [entity(17, 27, 'current_complaint')], null, {
        rewordings: [
          { entityExtract: 'back hurts', category: 'current_complaint', text: 'Since when?' },
        ],
      }),
      null,
    ],
    [
      'a goal intent of the conversation asks for rewording too',
      messageJob({ code: 'duration' }, { ...full, metadata: { conversationGoal: 'hpi' } }),
      annotation('duration', [entity(28, 40, 'duration'), entity(17, 27, 'current_complaint')]),
      rewordingsMissingMessage(['back hurts']),
    ],
    [
      'verify-answered is not judged on annotations',
      messageJob({ code: 'duration' }, { job: { purpose: 'verify-answered' } }),
      annotation('duration', []),
      null,
    ],
    [
      'an escalation (purpose exception) is accepted as it is',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [], null, { action: 'suggest_escalation' }),
      null,
    ],
    [
      'a job without a custom exception event cannot be forgotten',
      messageJob({ code: 'duration' }, full),
      annotation('duration', [], null, { action: 'suggest_forget' }),
      purposeExceptionMessage('suggest_escalation', undefined),
    ],
    [
      'a job with a custom exception label raises its custom event: suggest_forget',
      messageJob({ code: 'duration' }, { job: { purpose: 'full', exceptionLabel: 'Off topic' } }),
      annotation('duration', [], null, { action: 'suggest_forget' }),
      null,
    ],
    [
      'a job with a custom exception label is not escalated',
      messageJob({ code: 'duration' }, { job: { purpose: 'full', exceptionLabel: 'Off topic' } }),
      annotation('duration', [], null, { action: 'suggest_escalation' }),
      purposeExceptionMessage('suggest_forget', 'Off topic'),
    ],
    [
      'a custom event still needs the ids and the slot of a message.annotation',
      messageJob({ code: 'duration' }, { job: { purpose: 'full', exceptionLabel: 'Off topic' } }),
      { action: 'suggest_forget', conversationId: 'c-1', messageId: 'm-1', entities: [] },
      'The exception is not valid: slot Invalid input: expected object, received undefined.',
    ],
    [
      'a job with no slot specification is not judged (the panel offers only the exception)',
      { type: 'message.annotation.job', data: { lastTurn: turn } },
      { action: 'answer' },
      null,
    ],
  ])('%s', (_name, job, data, expected) => {
    expect(checkSubmission(job, 'message.annotation', data)).toBe(expected);
  });

  it('a malformed annotation says which field is wrong', () => {
    expect(
      checkSubmission(messageJob({ code: 'duration' }, full), 'message.annotation', {
        action: 'answer',
        entities: [],
      }),
    ).toMatch(/^The annotation is not valid: conversationId .*; messageId .*; slot /);
  });
});

describe('the server checks the other submissions', () => {
  const intentJob: HeldJob = { type: 'intent.classification.job', data: { lastTurn: turn } };
  const rephraseJob = messageJob({ code: 'onset' }, { rephraseOptions: 'When?~Since when?' });
  const priorityJob: HeldJob = {
    type: 'intent.hpi.priority.job',
    data: { choices: [['c1', 'back'], { id: 'c2', extract: 'rash' }] },
  };
  const rephrase = (message: string) => ({
    conversationId: 'c-1',
    recipientId: 'p-1',
    message,
    replyType: 'REPHRASE',
    replyTo: 'm-1',
  });
  const concept = { id: 'x', code: { code: 'C1', system: 'https://kb' } };

  it.each<[string, HeldJob, string, Record<string, unknown>, string | null]>([
    [
      'an intent job needs an intent',
      intentJob,
      'message.annotation',
      { entities: [entity(17, 27, 'sx')] },
      ANNOTATE_INTENT_MESSAGE,
    ],
    [
      'an intent job with an intent passes',
      intentJob,
      'message.annotation',
      { entities: [entity(17, 27, 'hpi')] },
      null,
    ],
    [
      "an intent job's offsets must match",
      intentJob,
      'message.annotation',
      { entities: [{ ...entity(17, 27, 'hpi'), end: 28 }] },
      ENTITIES_DO_NOT_MATCH_MESSAGE,
    ],
    [
      'a rephrase must be one of the options',
      rephraseJob,
      'message.rephrase.question',
      rephrase('Why?'),
      REPHRASE_OPTION_MESSAGE,
    ],
    [
      'a rephrase among the options passes',
      rephraseJob,
      'message.rephrase.question',
      rephrase('Since when?'),
      null,
    ],
    [
      'a priority must be a choice',
      priorityJob,
      'hpi.prioritised',
      { action: 'set_priority', conversationId: 'c-1', priority: 'c3' },
      PRIORITY_CHOICE_MESSAGE,
    ],
    [
      'a priority choice passes',
      priorityJob,
      'hpi.prioritised',
      { action: 'set_priority', conversationId: 'c-1', priority: 'c1' },
      null,
    ],
    [
      'an exception needs its action',
      rephraseJob,
      'message.annotation.exception',
      { action: 'other' },
      EXCEPTION_ACTION_MESSAGE,
    ],
    [
      'an exception lacking ids is still accepted',
      rephraseJob,
      'message.annotation.exception',
      { action: 'exception' },
      null,
    ],
    [
      'rpa.robot.clear needs clear',
      { type: 'robot-process-automation.manual-step.job', data: {} },
      'rpa.robot.clear',
      { action: 'done' },
      RPA_CLEAR_MESSAGE,
    ],
    [
      'a reword answer needs its text',
      messageJob({ code: 'onset' }, { job: { purpose: 'reword' } }),
      'quinn.action.answer_quinn',
      {
        action: 'suggest_entity_reword',
        rewordings: [{ entityExtract: 'x', category: 'onset', text: ' ' }],
      },
      REWORD_TEXT_MESSAGE,
    ],
    [
      'a reword answer must say suggest_entity_reword',
      messageJob({ code: 'onset' }, { job: { purpose: 'reword' } }),
      'quinn.action.answer_quinn',
      { action: 'suggest_entity_normalisation' },
      answerActionMessage('suggest_entity_reword'),
    ],
    [
      'a normalisation answer needs its concept',
      messageJob({ code: 'onset' }, { job: { purpose: 'normalise' } }),
      'quinn.action.answer_quinn',
      { action: 'suggest_entity_normalisation', concept: { id: 'x' } },
      CONCEPT_MESSAGE,
    ],
    [
      'a normalisation answer with its concept passes',
      messageJob({ code: 'onset' }, { job: { purpose: 'normalise' } }),
      'quinn.action.answer_quinn',
      { action: 'suggest_entity_normalisation', concept },
      null,
    ],
    ['a portal event is not judged here', rephraseJob, 'dh.portal.hitl.event', {}, null],
  ])('%s', (_name, job, type, data, expected) => {
    expect(checkSubmission(job, type, data)).toBe(expected);
  });
});
