import {
  JOB_TYPE_PREFIX,
  type AsyncTaskType,
  type InputForm,
  type Pipeline,
  type PipelineStep,
} from '@loopdesk/contracts/async-jobs.ts';

/**
 * The pipeline definitions, as data: one pipeline per task type of spec 3 §2. A task waits in a
 * step in the step's state and is shown on the step's screen (the portal picks its screen by that
 * value, spec 3 §2 "Task screen selection"); a submit moves it to the next step (and its state), the last step's
 * submit completes it, a discard ends it. docs/async-pipelines.md draws every one.
 */
const step = (
  name: string,
  description: string,
  state: PipelineStep['state'],
  submission: PipelineStep['submission'],
  screen: PipelineStep['screen'],
): PipelineStep => ({
  name,
  description,
  state,
  approval: state !== 'REGISTERED' && state !== 'OBSERVATIONS_ADDED',
  submission,
  screen,
});

const conditionForm = (title: string): InputForm => ({
  title,
  fields: [
    { name: 'condition', label: 'Condition', kind: 'typeahead', required: true },
    { name: 'reference', label: 'Source material', kind: 'text', required: true },
    { name: 'notes', label: 'Notes', kind: 'multiline', required: false },
  ],
});

const define = (
  id: number,
  name: string,
  type: AsyncTaskType,
  steps: PipelineStep[],
  form?: InputForm,
): Pipeline => ({
  id,
  name,
  type,
  jobType: `${JOB_TYPE_PREFIX}${type}`,
  definition: { ...(form ? { input: { form } } : {}), main: { steps } },
});

export const PIPELINES: readonly Pipeline[] = [
  define(1, 'Rephrase', 'text.rephrase', [
    step(
      'rephrase',
      'Write at least 2 other wordings of the text.',
      'REGISTERED',
      'rephrase',
      'rephrase',
    ),
    step(
      'rephrase_approval',
      'Remove poor rephrases and choose the intent.',
      'PENDING_APPROVAL',
      'rephrase.approval',
      'rephrase.approval',
    ),
  ]),
  define(2, 'Text annotation', 'text.annotation', [
    step(
      'annotate',
      'Annotate the clinical information in the text.',
      'REGISTERED',
      'annotation',
      'annotation',
    ),
    step(
      'annotation_approval',
      'Approve, add, modify or delete the annotations.',
      'PENDING_APPROVAL',
      'annotation.approval',
      'annotation.approval',
    ),
  ]),
  define(
    3,
    'Condition relationships',
    'condition.observations',
    [
      step(
        'add_observations',
        'Add the observations of the condition, each with its class.',
        'REGISTERED',
        'observations',
        'observations',
      ),
      step(
        'observation_relationships',
        'Set the correlation and weight of every observation.',
        'OBSERVATIONS_ADDED',
        'relationships',
        'relationships',
      ),
      step(
        'internal_approval',
        'Approve the relationships, or strike some through.',
        'PENDING_INTERNAL_APPROVAL',
        'relationships.approval',
        'relationships.approval',
      ),
      step(
        'external_approval',
        'Clinical sign-off of the relationships.',
        'PENDING_EXTERNAL_APPROVAL',
        'relationships.approval',
        'relationships.approval',
      ),
    ],
    conditionForm('Add a new condition to relationship pipeline'),
  ),
  define(
    4,
    'Condition complications',
    'condition.complications',
    [
      step(
        'add_complications',
        'Add the complications of the condition, each with a concept.',
        'REGISTERED',
        'complications',
        'complications',
      ),
      step(
        'internal_approval',
        'Approve the complications, strike some through or add more.',
        'PENDING_INTERNAL_APPROVAL',
        'complications.approval',
        'complications.approval',
      ),
      step(
        'external_approval',
        'Clinical sign-off of the complications.',
        'PENDING_EXTERNAL_APPROVAL',
        'complications.approval',
        'complications.approval',
      ),
    ],
    conditionForm('Add a new condition to complication pipeline'),
  ),
  define(5, 'Entity normalisation', 'entity.normalisation', [
    step(
      'normalise',
      'Give every entity a concept, or mark it unable to normalise.',
      'REGISTERED',
      'normalisation',
      'normalisation',
    ),
    step(
      'normalisation_approval',
      'Check the concepts chosen for the entities.',
      'PENDING_APPROVAL',
      'normalisation.approval',
      'normalisation',
    ),
  ]),
  define(6, 'Observation questions', 'observation.questions', [
    step(
      'add_questions',
      'Write at least 2 questions that ask about the observation.',
      'REGISTERED',
      'questions',
      'questions',
    ),
    step(
      'internal_approval',
      'Approve the questions, strike some through or add more.',
      'PENDING_INTERNAL_APPROVAL',
      'questions.approval',
      'questions.approval',
    ),
    step(
      'external_approval',
      'Clinical sign-off of the questions.',
      'PENDING_EXTERNAL_APPROVAL',
      'questions.approval',
      'questions.approval',
    ),
  ]),
  define(7, 'Clinical locations', 'clinical.location', [
    step(
      'add_locations',
      'Choose the pathological processes, body systems and anatomical locations.',
      'REGISTERED',
      'location',
      'location',
    ),
    step(
      'internal_review',
      'Review the locations.',
      'PENDING_INTERNAL_REVIEW',
      'location',
      'location.review',
    ),
    step(
      'external_review',
      'Clinical sign-off of the locations.',
      'PENDING_EXTERNAL_REVIEW',
      'location',
      'location.review',
    ),
  ]),
  define(8, 'Differential diagnosis', 'clinical.differential', [
    step(
      'rank_differential',
      'Read the conversation and rank five or more diagnoses, most likely first.',
      'REGISTERED',
      'differential',
      'differential',
    ),
  ]),
  define(9, 'Conversation labelling', 'conversation.annotation', [
    step(
      'label_conversation',
      'Label the decoded and extended observations of the conversation.',
      'REGISTERED',
      'conversation.annotation',
      'conversation.annotation',
    ),
  ]),
  define(10, 'Condition medications', 'condition.medications', [
    step(
      'medications_approval',
      "Mark the condition's medications for removal or add missing ones.",
      'PENDING_APPROVAL',
      'medications',
      'medications',
    ),
  ]),
  define(11, 'Condition symptoms', 'condition.symptoms', [
    step(
      'symptoms_approval',
      "Mark the condition's symptoms for removal or add missing ones.",
      'PENDING_APPROVAL',
      'symptoms',
      'symptoms',
    ),
  ]),
];

const BY_ID = new Map(PIPELINES.map((p) => [String(p.id), p]));

/** The pipeline of a path parameter, or undefined. */
export function findPipeline(pipelineId: string): Pipeline | undefined {
  return BY_ID.get(pipelineId);
}

/** The step after `stepName`, or undefined when it is the last. */
export function nextStep(pipeline: Pipeline, stepName: string): PipelineStep | undefined {
  const steps = pipeline.definition.main.steps;
  const index = steps.findIndex((s) => s.name === stepName);
  return index >= 0 ? steps[index + 1] : undefined;
}
