import type {
  AsyncTask,
  InputForm,
  Pipeline,
  PipelineStep,
  PipelineWithStats,
} from '@loopdesk/contracts/async-jobs.ts';

/** First render: the lazy route and its first fetches can be slow on a busy machine. */
export const SLOW = { timeout: 10_000 };

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

/** The calls whose path ends with `suffix`: method, full URL and JSON body. */
export function requestsTo(fetchMock: { mock: { calls: FetchArgs[] } }, suffix: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      init,
    }))
    .filter(({ url }) => new URL(url, 'http://localhost').pathname.endsWith(suffix))
    .map(({ url, init }) => ({
      method: init?.method ?? 'GET',
      url: new URL(url, 'http://localhost'),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }));
}

export const REPHRASE_PIPELINE: Pipeline = {
  id: 1,
  name: 'Rephrase',
  type: 'text.rephrase',
  jobType: 'hitl.jobs.async.text.rephrase',
  definition: {
    main: {
      steps: [
        {
          name: 'rephrase',
          description: 'Write at least 2 other wordings of the text.',
          state: 'REGISTERED',
          approval: false,
          submission: 'rephrase',
          screen: 'rephrase',
        },
        {
          name: 'rephrase_approval',
          description: 'Remove poor rephrases and choose the intent.',
          state: 'PENDING_APPROVAL',
          approval: true,
          submission: 'rephrase.approval',
          screen: 'rephrase.approval',
        },
      ],
    },
  },
};

export const COMPLICATIONS_PIPELINE: Pipeline = {
  id: 4,
  name: 'Condition complications',
  type: 'condition.complications',
  jobType: 'hitl.jobs.async.condition.complications',
  definition: {
    input: {
      form: {
        title: 'Add a new condition to complication pipeline',
        fields: [
          { name: 'condition', label: 'Condition', kind: 'typeahead', required: true },
          { name: 'reference', label: 'Source material', kind: 'multiline', required: true },
          { name: 'notes', label: 'Notes', kind: 'multiline', required: false },
        ],
      },
    },
    main: {
      steps: [
        {
          name: 'add_complications',
          description: 'Add the complications of the condition, each with a concept.',
          state: 'REGISTERED',
          approval: false,
          submission: 'complications',
          screen: 'complications',
        },
      ],
    },
  },
};

export function withStats(
  pipeline: Pipeline,
  jobs: Readonly<Record<string, number>>,
): PipelineWithStats {
  return {
    ...pipeline,
    stats: {
      steps: pipeline.definition.main.steps.map((step) => ({
        [step.name]: { jobs: jobs[step.name] ?? 0, taken: 0 },
      })),
    },
  };
}

type StepRow = [
  name: string,
  state: PipelineStep['state'],
  submission: PipelineStep['submission'],
  screen: PipelineStep['screen'],
];

const conditionForm = (title: string): InputForm => ({
  title,
  fields: [
    { name: 'condition', label: 'Condition', kind: 'typeahead', required: true },
    { name: 'reference', label: 'Source material', kind: 'text', required: true },
    { name: 'notes', label: 'Notes', kind: 'multiline', required: false },
  ],
});

function served(
  id: number,
  name: string,
  type: Pipeline['type'],
  rows: StepRow[],
  form?: InputForm,
): Pipeline {
  return {
    id,
    name,
    type,
    jobType: `hitl.jobs.async.${type}`,
    definition: {
      ...(form ? { input: { form } } : {}),
      main: {
        steps: rows.map(([stepName, state, submission, screen]) => ({
          name: stepName,
          description: `The ${stepName.replace(/_/g, ' ')} step.`,
          state,
          approval: state !== 'REGISTERED' && state !== 'OBSERVATIONS_ADDED',
          submission,
          screen,
        })),
      },
    },
  };
}

/**
 * The pipelines as `GET /internal/async-jobs/pipelines` serves them: each step names the screen
 * its task is shown on (the server's table, apps/server/src/modules/async-jobs/pipelines.ts).
 */
export const SERVED_PIPELINES: readonly Pipeline[] = [
  served(1, 'Rephrase', 'text.rephrase', [
    ['rephrase', 'REGISTERED', 'rephrase', 'rephrase'],
    ['rephrase_approval', 'PENDING_APPROVAL', 'rephrase.approval', 'rephrase.approval'],
  ]),
  served(2, 'Text annotation', 'text.annotation', [
    ['annotate', 'REGISTERED', 'annotation', 'annotation'],
    ['annotation_approval', 'PENDING_APPROVAL', 'annotation.approval', 'annotation.approval'],
  ]),
  served(
    3,
    'Condition relationships',
    'condition.observations',
    [
      ['add_observations', 'REGISTERED', 'observations', 'observations'],
      ['observation_relationships', 'OBSERVATIONS_ADDED', 'relationships', 'relationships'],
      [
        'internal_approval',
        'PENDING_INTERNAL_APPROVAL',
        'relationships.approval',
        'relationships.approval',
      ],
      [
        'external_approval',
        'PENDING_EXTERNAL_APPROVAL',
        'relationships.approval',
        'relationships.approval',
      ],
    ],
    conditionForm('Add a new condition to relationship pipeline'),
  ),
  served(
    4,
    'Condition complications',
    'condition.complications',
    [
      ['add_complications', 'REGISTERED', 'complications', 'complications'],
      [
        'internal_approval',
        'PENDING_INTERNAL_APPROVAL',
        'complications.approval',
        'complications.approval',
      ],
      [
        'external_approval',
        'PENDING_EXTERNAL_APPROVAL',
        'complications.approval',
        'complications.approval',
      ],
    ],
    conditionForm('Add a new condition to complication pipeline'),
  ),
  served(5, 'Entity normalisation', 'entity.normalisation', [
    ['normalise', 'REGISTERED', 'normalisation', 'normalisation'],
    ['normalisation_approval', 'PENDING_APPROVAL', 'normalisation.approval', 'normalisation'],
  ]),
  served(6, 'Observation questions', 'observation.questions', [
    ['add_questions', 'REGISTERED', 'questions', 'questions'],
    ['internal_approval', 'PENDING_INTERNAL_APPROVAL', 'questions.approval', 'questions.approval'],
    ['external_approval', 'PENDING_EXTERNAL_APPROVAL', 'questions.approval', 'questions.approval'],
  ]),
  served(7, 'Clinical locations', 'clinical.location', [
    ['add_locations', 'REGISTERED', 'location', 'location'],
    ['internal_review', 'PENDING_INTERNAL_REVIEW', 'location', 'location.review'],
    ['external_review', 'PENDING_EXTERNAL_REVIEW', 'location', 'location.review'],
  ]),
  served(8, 'Differential diagnosis', 'clinical.differential', [
    ['rank_differential', 'REGISTERED', 'differential', 'differential'],
  ]),
  served(9, 'Conversation labelling', 'conversation.annotation', [
    ['label_conversation', 'REGISTERED', 'conversation.annotation', 'conversation.annotation'],
  ]),
  served(10, 'Condition medications', 'condition.medications', [
    ['medications_approval', 'PENDING_APPROVAL', 'medications', 'medications'],
  ]),
  served(11, 'Condition symptoms', 'condition.symptoms', [
    ['symptoms_approval', 'PENDING_APPROVAL', 'symptoms', 'symptoms'],
  ]),
];

/** The step a task of `type` waits in while in `state`, as the served pipelines say. */
function lockOf(type: AsyncTask['type'], state: AsyncTask['state']): AsyncTask['lock'] {
  const pipeline = SERVED_PIPELINES.find((candidate) => candidate.type === type);
  const step = pipeline?.definition.main.steps.find((candidate) => candidate.state === state);
  return pipeline && step
    ? { pipeline: pipeline.id, step: step.name }
    : { pipeline: 1, step: 'rephrase' };
}

/** A task of `type` in `state`, held by the test user, locked in the step of that state. */
export function makeTask(
  type: AsyncTask['type'],
  state: AsyncTask['state'],
  overrides: Partial<AsyncTask> = {},
): AsyncTask {
  return {
    id: 'task-1',
    type,
    jobType: `hitl.jobs.async.${type}`,
    jobClass: 'clinical',
    state,
    version: '0.0.1',
    changeLog: [],
    metadata: {},
    createdOn: '2026-01-01T00:00:00.000Z',
    lock: lockOf(type, state),
    lease: { holder: 'user-ann', expiresAt: '2026-01-01T00:10:00.000Z' },
    data: {},
    annotations: { entities: [] },
    condition: {},
    locations: {},
    completedOn: null,
    discardedNote: null,
    ...overrides,
  };
}
