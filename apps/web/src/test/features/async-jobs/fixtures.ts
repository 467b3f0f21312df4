import type { AsyncTask, Pipeline, PipelineWithStats } from '@loopdesk/contracts/async-jobs.ts';

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
        },
        {
          name: 'rephrase_approval',
          description: 'Remove poor rephrases and choose the intent.',
          state: 'PENDING_APPROVAL',
          approval: true,
          submission: 'rephrase.approval',
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

/** A task of `type` in `state`, held by the test user. */
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
    lock: { pipeline: 1, step: 'rephrase' },
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
