import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AsyncTask, SubmissionKind } from '@loopdesk/contracts/async-jobs.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { loadKnowledge } from '../knowledge/knowledge.ts';
import { PIPELINES, findPipeline } from './pipelines.ts';
import { createAsyncJobsService, type AsyncJobsService } from './service.ts';
import { demoTasks } from './seed.ts';
import { seedDemoTasks } from './module.ts';
import { asyncJobsClient } from './test-client.ts';

const BASE = '/internal/async-jobs/pipelines';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const entity = {
  id: 'e1',
  start: 0,
  end: 5,
  extract: 'cough',
  category: 'Symptom',
  conceptId: 'LD:cough',
  conceptName: 'cough',
};
const relationship = {
  id: 'r1',
  name: 'fever',
  cui: 'C0015967',
  observationClass: 'symptom',
  correlation: 'Positive',
  weight: 'High',
};

/** A valid submit body for every kind of step (spec 3 §7). */
const VALID: Record<SubmissionKind, unknown> = {
  rephrase: { rephrases: ['Do you feel hot?', 'Have you had a temperature?'] },
  'rephrase.approval': {
    rephrases_removed: ['Do you feel hot?'],
    rephrases: ['Do you feel hot?', 'Have you had a temperature?'],
    intents: ['clinical+medical'],
  },
  annotation: { annotations: { entities: [entity] } },
  'annotation.approval': {
    approved: { entities: [entity] },
    added: { entities: [] },
    modified: { entities: [] },
    deleted: { entities: [] },
  },
  normalisation: {
    normalised: {
      entities: [{ id: 'e1', conceptId: 'LD:cough', conceptName: 'cough', state: 'NORMALISED' }],
    },
  },
  'normalisation.approval': {
    normalised: { entities: [{ id: 'e1', conceptId: null, state: 'APPROVED' }] },
  },
  observations: {
    observations: [
      { observation: 'fever', observationCUI: 'C0015967', observationClass: 'symptom' },
    ],
  },
  relationships: { removedObservations: [], observations: [relationship] },
  'relationships.approval': {
    removedObservations: [],
    observations: [{ ...relationship, weight: 'Low' }],
  },
  complications: { complications: [{ complication: 'sepsis', complicationCUI: 'C0243026' }] },
  'complications.approval': { complications_removed: [], complications: [] },
  questions: { questions: [{ text: 'Do you have a fever?' }, { text: 'When did it start?' }] },
  'questions.approval': { questions_removed: [], questions: [{ text: 'Any chills?' }] },
  location: {
    locations: {
      pathologicalProcesses: [{ display: 'infection', bid: 'LD:process/infection' }],
      bodySystems: [{ coding: { display: 'respiratory system' }, bid: 'LD:system/respiratory' }],
      anatomicalLocations: [],
    },
  },
  differential: {
    differential: [
      { code: 'LD:influenza', rank: 1 },
      { name: 'something rare', code: 'free-text', rank: 2 },
    ],
  },
  'conversation.annotation': {
    decodedObservations: [{ conceptId: 'LD:fever', name: 'fever' }],
    extendedObservations: [],
  },
  medications: { medications_removed: [], medications: [{ text: 'paracetamol' }] },
  symptoms: { symptoms_removed: [], symptoms: [{ text: 'sore throat' }] },
};

/** A wrong body for every kind, with the field path and the message the answer must name. */
const INVALID: Record<SubmissionKind, [unknown, string, string | RegExp]> = {
  rephrase: [{ rephrases: ['only one'] }, 'body.data.rephrases', 'Add at least 2 rephrases.'],
  'rephrase.approval': [
    { rephrases_removed: [], rephrases: ['a b c d'], intents: [] },
    'body.data.intents',
    'Please choose an intent.',
  ],
  annotation: [
    { annotations: { entities: [{ ...entity, category: 'Colour' }] } },
    'body.data.annotations.entities.0.category',
    /Invalid option/,
  ],
  'annotation.approval': [{ approved: { entities: [] } }, 'body.data.added', /expected object/],
  normalisation: [
    { normalised: { entities: [{ id: 'e1', state: 'NORMALISED' }] } },
    'body.data.normalised.entities',
    'Every entity needs a concept or must be marked unable to normalise.',
  ],
  'normalisation.approval': [
    { normalised: { entities: [{ id: 'e1', state: 'CHECKED' }] } },
    'body.data.normalised.entities.0.state',
    /Invalid option/,
  ],
  observations: [
    { observations: [{ observation: 'fever', observationClass: '' }] },
    'body.data.observations.0.observationClass',
    'Please complete both observation and observation class.',
  ],
  relationships: [
    { removedObservations: [], observations: [{ ...relationship, name: ' ' }] },
    'body.data.observations.0.name',
    'Every observation needs a name.',
  ],
  'relationships.approval': [
    { removedObservations: [], observations: [{ ...relationship, weight: 'Huge' }] },
    'body.data.observations.0.weight',
    /Invalid option/,
  ],
  complications: [
    { complications: [{ complication: '' }] },
    'body.data.complications.0.complication',
    'Please enter complication.',
  ],
  'complications.approval': [
    { complications: [] },
    'body.data.complications_removed',
    /expected array/,
  ],
  questions: [
    { questions: [{ text: 'Any fever?' }, { text: '' }] },
    'body.data.questions.1.text',
    'Please add a question.',
  ],
  'questions.approval': [
    { questions_removed: [], questions: [{ text: '' }] },
    'body.data.questions.0.text',
    'Please add a question.',
  ],
  location: [
    { locations: { pathologicalProcesses: [], bodySystems: [] } },
    'body.data.locations.anatomicalLocations',
    /expected array/,
  ],
  differential: [{ differential: [] }, 'body.data.differential', 'Choose at least 1 diagnosis.'],
  'conversation.annotation': [
    { decodedObservations: [{ name: 'fever' }], extendedObservations: [] },
    'body.data.decodedObservations.0.conceptId',
    /expected string/,
  ],
  medications: [
    { medications_removed: [], medications: [{ text: '  ' }] },
    'body.data.medications.0.text',
    'Please add a medication.',
  ],
  symptoms: [
    { symptoms_removed: [], symptoms: [{ text: '' }] },
    'body.data.symptoms.0.text',
    'Please add a symptom.',
  ],
};

describe('asynchronous pipelines engine', () => {
  let t: TestApp;
  let service: AsyncJobsService;
  let ann: { token: string; userId: string };
  let bob: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { DEMO: '0' } });
    service = createAsyncJobsService(t.database.db, { leaseMs: 600_000 });
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    bob = await tokenForRoles(t, 'bob@example.test', ['approver']);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    // Completed condition tasks write knowledge revisions, which point at their tasks.
    await t.database.db.deleteFrom('kb_revisions').execute();
    await t.database.db.deleteFrom('async_tasks').execute();
  });

  // The calls go through the app of this suite, started in beforeAll.
  const client = () => asyncJobsClient(t.app);
  const as = (token: string) => client().as(token);
  const pop = (token: string, pipeline: number | string, step: string) =>
    client().pop(token, pipeline, step);
  const submit = (token: string, task: AsyncTask, data: unknown) =>
    client().submit(token, task, data);
  const discard = (token: string, task: AsyncTask, reason?: string) =>
    client().discard(token, task, reason);
  const seedTask = async (pipelineId: number, stepIndex = 0) => {
    const pipeline = findPipeline(String(pipelineId));
    if (!pipeline) {
      throw new Error(`no pipeline ${pipelineId}`);
    }
    return service.insert({
      pipeline,
      step: pipeline.definition.main.steps[stepIndex],
      data: { text: 'I have a cough', condition: 'pneumonia' },
      annotations: { entities: [entity] },
      condition: { observations: [relationship] },
    });
  };
  const rowOf = (id: string) =>
    t.database.db
      .selectFrom('async_tasks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('lists a pipeline for every task type, 3 and 4 with the add-job form', async () => {
    const response = await t.app.inject({ method: 'GET', url: BASE, headers: as(ann.token) });
    expect(response.statusCode).toBe(200);
    const { items } = response.json<{
      items: { id: number; jobType: string; definition: { input?: { form: { title: string } } } }[];
    }>();
    expect(items).toHaveLength(11);
    expect(items.find((p) => p.id === 3)).toMatchObject({
      jobType: 'hitl.jobs.async.condition.observations',
      definition: { input: { form: { title: 'Add a new condition to relationship pipeline' } } },
    });
    expect(items.find((p) => p.id === 4)).toMatchObject({
      jobType: 'hitl.jobs.async.condition.complications',
      definition: { input: { form: { title: 'Add a new condition to complication pipeline' } } },
    });
    expect(items.filter((p) => p.definition.input).map((p) => p.id)).toEqual([3, 4]);
  });

  it('adds a condition task as the new task payload of spec 3 §3, prefilled from the KB', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${BASE}/3/_add_task`,
      headers: as(ann.token),
      payload: { data: { condition: 'pneumonia', reference: 'NICE CKS', cui: null } },
    });
    expect(response.statusCode).toBe(201);
    const task = response.json<AsyncTask>();
    expect(task).toMatchObject({
      type: 'condition.observations',
      jobType: 'hitl.jobs.async.condition.observations',
      jobClass: 'clinical',
      state: 'REGISTERED',
      version: '0.0.1',
      lock: { pipeline: 3, step: 'add_observations' },
      data: { condition: 'pneumonia', reference: 'NICE CKS', notes: '', cui: null },
      lease: null,
    });
    expect(task.condition).toMatchObject({ conceptId: 'LD:pneumonia' });
    expect((task.condition.observations as unknown[]).length).toBeGreaterThan(0);
    expect(task.changeLog).toMatchObject([
      {
        action: 'CREATED',
        user: { id: ann.userId, email: 'ann@example.test' },
        toState: 'REGISTERED',
      },
    ]);
    const stats = await t.app.inject({ method: 'GET', url: `${BASE}/3`, headers: as(ann.token) });
    expect(stats.json().stats.steps[0]).toEqual({ add_observations: { jobs: 1, taken: 0 } });
  });

  it('refuses a bad add: no source material, a pipeline without a form, an unknown pipeline', async () => {
    const noReference = await t.app.inject({
      method: 'POST',
      url: `${BASE}/4/_add_task`,
      headers: as(ann.token),
      payload: { data: { condition: 'asthma', reference: '' } },
    });
    expect(noReference.statusCode).toBe(400);
    expect(noReference.json().details).toEqual([
      { path: 'body.data.reference', message: 'Please add the source material.' },
    ]);
    // A missing field says the same as an empty one.
    const missing = await t.app.inject({
      method: 'POST',
      url: `${BASE}/4/_add_task`,
      headers: as(ann.token),
      payload: { data: { reference: 'BTS/SIGN asthma guideline' } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([
      { path: 'body.data.condition', message: 'Please choose a condition.' },
    ]);
    const noForm = await t.app.inject({
      method: 'POST',
      url: `${BASE}/1/_add_task`,
      headers: as(ann.token),
      payload: { data: { condition: 'asthma', reference: 'x' } },
    });
    expect(noForm.statusCode).toBe(400);
    expect(noForm.json().message).toMatch(/has no input form/);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${BASE}/99`,
      headers: as(ann.token),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/No pipeline '99'/);
    expect(await t.database.db.selectFrom('async_tasks').select('id').execute()).toEqual([]);
  });

  it("an empty step answers 404 'Job queue empty'; an unknown step or task is a 404", async () => {
    const empty = await pop(ann.token, 3, 'add_observations');
    expect(empty.statusCode).toBe(404);
    expect(empty.json()).toEqual({ error: 'Not Found', message: 'Job queue empty' });
    const noStep = await pop(ann.token, 3, 'nowhere');
    expect(noStep.statusCode).toBe(404);
    expect(noStep.json().message).toMatch(/has no step 'nowhere'/);
    const noTask = await t.app.inject({
      method: 'GET',
      url: `${BASE}/3/steps/add_observations/tasks/00000000-0000-0000-0000-000000000000`,
      headers: as(ann.token),
    });
    expect(noTask.statusCode).toBe(404);
    // Submitting or discarding a task that does not exist says so too.
    const ghost = {
      id: '00000000-0000-0000-0000-000000000000',
      lock: { pipeline: 4, step: 'add_complications' },
    } as AsyncTask;
    for (const response of [
      await submit(ann.token, ghost, {
        complications: [{ complication: 'x', complicationCUI: null }],
      }),
      await discard(ann.token, ghost, 'Not needed'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(
        "No task '00000000-0000-0000-0000-000000000000' in step add_complications of pipeline 4.",
      );
    }
  });

  it.each(PIPELINES.map((p) => [p.id, p.type] as const))(
    'pipeline %i (%s) moves a task through every step to COMPLETED',
    async (pipelineId) => {
      const pipeline = findPipeline(String(pipelineId));
      const steps = pipeline?.definition.main.steps ?? [];
      const row = await seedTask(pipelineId);
      for (const [index, step] of steps.entries()) {
        const taken = await pop(ann.token, pipelineId, step.name);
        expect(taken.statusCode, step.name).toBe(200);
        const task = taken.json<AsyncTask>();
        expect(task).toMatchObject({ id: row.id, state: step.state, lock: { step: step.name } });
        expect(task.lease?.holder).toBe(ann.userId);
        const submitted = await submit(ann.token, task, VALID[step.submission]);
        expect(submitted.statusCode, `${step.name}: ${submitted.body}`).toBe(200);
        const next = steps[index + 1];
        expect(submitted.json()).toMatchObject({
          state: next ? next.state : 'COMPLETED',
          lock: { step: next ? next.name : step.name },
          lease: null,
        });
      }
      const done = await rowOf(row.id);
      expect(done.completed_at).not.toBeNull();
      const log = done.change_log as { action: string; user: { id: string } }[];
      expect(log.map((e) => e.action)).toEqual([
        'CREATED',
        ...steps.flatMap(() => ['TAKEN', 'SUBMITTED']),
      ]);
      expect(log.slice(1).every((e) => e.user.id === ann.userId)).toBe(true);
      // A completed task cannot be taken again.
      expect((await pop(ann.token, pipelineId, steps[0]?.name ?? '')).statusCode).toBe(404);
    },
  );

  it('submissions shape the task the next step shows', async () => {
    await seedTask(4);
    const first = (await pop(ann.token, 4, 'add_complications')).json<AsyncTask>();
    await submit(ann.token, first, VALID.complications);
    const second = (await pop(bob.token, 4, 'internal_approval')).json<AsyncTask>();
    const complications = second.condition.complications as { id: string; name: string }[];
    expect(complications.map((c) => c.name)).toEqual(['sepsis']);
    const after = await submit(bob.token, second, {
      complications_removed: [complications[0]?.id],
      complications: [{ complication: 'empyema' }],
    });
    // The struck one stays, marked, so the next approval shows it struck through.
    const revised = after.json().condition.complications as { name: string; removed?: boolean }[];
    expect(revised.map((c) => [c.name, c.removed === true])).toEqual([
      ['sepsis', true],
      ['empyema', false],
    ]);
  });

  it.each(Object.keys(INVALID) as SubmissionKind[])(
    'a %s body of the wrong shape is a 400 naming the field, and changes nothing',
    async (kind) => {
      const pipeline = PIPELINES.find((p) =>
        p.definition.main.steps.some((s) => s.submission === kind),
      );
      const stepIndex =
        pipeline?.definition.main.steps.findIndex((s) => s.submission === kind) ?? -1;
      const step = pipeline?.definition.main.steps[stepIndex];
      if (!pipeline || !step) {
        throw new Error(`no step submits ${kind}`);
      }
      const row = await seedTask(pipeline.id, stepIndex);
      const task = (await pop(ann.token, pipeline.id, step.name)).json<AsyncTask>();
      const before = await rowOf(row.id);
      const [data, path, message] = INVALID[kind];
      const response = await submit(ann.token, task, data);
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{
        message: string;
        details: { path: string; message: string }[];
      }>();
      const detail = body.details.find((d) => d.path === path);
      expect(detail, JSON.stringify(body.details)).toBeDefined();
      expect(detail?.message).toMatch(message);
      expect(await rowOf(row.id)).toEqual(before);
      // An empty body is refused too.
      expect((await submit(ann.token, task, {})).statusCode).toBe(400);
    },
  );

  it('a body made for another task type names what is missing and the shape the step takes, and changes nothing', async () => {
    const row = await seedTask(4);
    const task = (await pop(ann.token, 4, 'add_complications')).json<AsyncTask>();
    const before = await rowOf(row.id);
    const response = await submit(ann.token, task, {
      rephrases: ['Any trouble breathing?', 'Is your chest tight?'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message:
        'Invalid body.data: body.data.complications: Invalid input: expected array, received undefined. ' +
        'A complications submission is { complications: [{ complication, complicationCUI }] }.',
      details: [{ path: 'body.data.complications' }],
    });
    expect(await rowOf(row.id)).toEqual(before);
  });

  it.each([
    [
      'a rephrase of 3 characters',
      1,
      0,
      { rephrases: ['abc', 'Have you had a temperature?'] },
      'body.data.rephrases.0',
      'Must be more than 3 characters.',
    ],
    [
      'a relationships approval that keeps no observation',
      3,
      2,
      { removedObservations: ['r1'], observations: [] },
      'body.data.observations',
      'Add at least 1 observation.',
    ],
    [
      'a complications approval that strikes out every complication',
      4,
      1,
      { complications_removed: ['c1'], complications: [] },
      'body.data.complications',
      'Keep or add at least 1 complication.',
    ],
    [
      'a questions approval that leaves 1 question',
      6,
      1,
      { questions_removed: ['q1'], questions: [] },
      'body.data.questions',
      'Keep or add at least 2 questions.',
    ],
    [
      'a medication of two lines',
      10,
      0,
      { medications_removed: [], medications: [{ text: 'ibuprofen\nparacetamol' }] },
      'body.data.medications.0.text',
      'Each medication is one line of text.',
    ],
  ] as const)(
    'the server refuses what the screens refuse: %s',
    async (_case, pipelineId, stepIndex, data, path, message) => {
      const pipeline = findPipeline(String(pipelineId));
      const step = pipeline?.definition.main.steps[stepIndex];
      if (!pipeline || !step) {
        throw new Error(`no step ${stepIndex} in pipeline ${pipelineId}`);
      }
      const row = await service.insert({
        pipeline,
        step,
        data: { condition: 'pneumonia', questions: [{ id: 'q1', text: 'Any fever?' }] },
        condition: { observations: [relationship], complications: [{ id: 'c1', name: 'sepsis' }] },
      });
      const task = (await pop(ann.token, pipelineId, step.name)).json<AsyncTask>();
      const before = await rowOf(row.id);
      const response = await submit(ann.token, task, data);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ message, details: [{ path, message }] });
      expect(await rowOf(row.id)).toEqual(before);
    },
  );

  it('only the lock holder may submit or discard', async () => {
    const row = await seedTask(6);
    const task = (await pop(ann.token, 6, 'add_questions')).json<AsyncTask>();
    const before = await rowOf(row.id);
    const bySubmit = await submit(bob.token, task, VALID.questions);
    expect(bySubmit.statusCode).toBe(409);
    expect(bySubmit.json().message).toMatch(/You do not hold task/);
    const byDiscard = await discard(bob.token, task, 'not mine');
    expect(byDiscard.statusCode).toBe(409);
    const wrongId = await t.app.inject({
      method: 'POST',
      url: `${BASE}/6/steps/add_questions/tasks/${task.id}`,
      headers: as(ann.token),
      payload: { id: 'another', data: VALID.questions },
    });
    expect(wrongId.statusCode).toBe(400);
    const wrongStep = await t.app.inject({
      method: 'POST',
      url: `${BASE}/6/steps/internal_approval/tasks/${task.id}`,
      headers: as(ann.token),
      payload: { id: task.id, data: VALID['questions.approval'] },
    });
    expect(wrongStep.statusCode).toBe(404);
    expect(await rowOf(row.id)).toEqual(before);
  });

  it("a discard needs a note ('Please add a note.') and ends the task with it", async () => {
    const row = await seedTask(7);
    const task = (await pop(ann.token, 7, 'add_locations')).json<AsyncTask>();
    for (const reason of [undefined, '  ']) {
      const response = await discard(ann.token, task, reason);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: 'Please add a note.',
        details: [{ path: 'querystring.reason', message: 'Please add a note.' }],
      });
    }
    expect((await rowOf(row.id)).state).toBe('REGISTERED');
    const response = await discard(ann.token, task, 'Duplicate of another task');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      state: 'DISCARDED',
      discardedNote: 'Duplicate of another task',
      lease: null,
    });
    expect(response.json<AsyncTask>().changeLog.at(-1)).toMatchObject({
      action: 'DISCARDED',
      note: 'Duplicate of another task',
      user: { id: ann.userId },
    });
    expect((await submit(ann.token, task, VALID.location)).statusCode).toBe(409);
    expect((await pop(ann.token, 7, 'add_locations')).statusCode).toBe(404);
  });

  it('an expired lock returns the task to its step; the old holder can no longer submit', async () => {
    const row = await seedTask(1);
    const task = (await pop(ann.token, 1, 'rephrase')).json<AsyncTask>();
    expect((await pop(bob.token, 1, 'rephrase')).statusCode).toBe(404);
    let stats = (
      await t.app.inject({ method: 'GET', url: `${BASE}/1`, headers: as(ann.token) })
    ).json();
    expect(stats.stats.steps[0]).toEqual({ rephrase: { jobs: 0, taken: 1 } });
    await sql`update async_tasks set lock_expires_at = now() - interval '1 second' where id = ${row.id}`.execute(
      t.database.db,
    );
    stats = (
      await t.app.inject({ method: 'GET', url: `${BASE}/1`, headers: as(ann.token) })
    ).json();
    expect(stats.stats.steps[0]).toEqual({ rephrase: { jobs: 1, taken: 0 } });
    const late = await submit(ann.token, task, VALID.rephrase);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/lock on task .* expired/);
    const retaken = await pop(bob.token, 1, 'rephrase');
    expect(retaken.statusCode).toBe(200);
    const again = retaken.json<AsyncTask>();
    expect(again).toMatchObject({ id: row.id, lease: { holder: bob.userId } });
    expect(again.changeLog.map((e) => e.action)).toEqual([
      'CREATED',
      'TAKEN',
      'LOCK_EXPIRED',
      'TAKEN',
    ]);
    expect((await submit(ann.token, again, VALID.rephrase)).statusCode).toBe(409);
    expect((await submit(bob.token, again, VALID.rephrase)).statusCode).toBe(200);
  });

  it('approval steps need jobs:async:approve', async () => {
    await seedTask(1, 1);
    const user = { id: ann.userId, email: 'x@example.test', roles: [], sessionId: 's' };
    await expect(service.pop('1', 'rephrase_approval', user)).rejects.toMatchObject({
      statusCode: 403,
      message: expect.stringMatching(/needs the privilege jobs:async:approve/),
    });
  });

  it.skipIf(!onPostgres)('20 concurrent takers never get the same task (PostgreSQL)', async () => {
    for (let i = 0; i < 12; i++) {
      await seedTask(2);
    }
    const takers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        tokenForRoles(t, `taker${i}@example.test`, ['annotator']),
      ),
    );
    const answers = await Promise.all(takers.map((taker) => pop(taker.token, 2, 'annotate')));
    const taken = answers.filter((a) => a.statusCode === 200).map((a) => a.json<AsyncTask>().id);
    expect(taken).toHaveLength(12);
    expect(new Set(taken).size).toBe(12);
    expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(8);
    const holders = await t.database.db
      .selectFrom('async_tasks')
      .select('lock_holder')
      .where('lock_holder', 'is not', null)
      .execute();
    expect(new Set(holders.map((h) => h.lock_holder)).size).toBe(12);
  });
});

describe('demo tasks', () => {
  it('fill every step of every pipeline from the knowledge base', () => {
    const knowledge = loadKnowledge('data/kb/kb.json');
    const tasks = demoTasks(knowledge);
    for (const pipeline of PIPELINES) {
      for (const step of pipeline.definition.main.steps) {
        expect(
          tasks.filter((task) => task.pipeline.id === pipeline.id && task.step?.name === step.name),
          `${pipeline.id} ${step.name}`,
        ).toHaveLength(2);
      }
    }
  });

  it('give the medications and symptoms approvals the condition’s items from the knowledge base', () => {
    const knowledge = loadKnowledge('data/kb/kb.json');
    const { treatments = [], relationships } = knowledge.kb.items;
    const nameOf = (id: string | undefined) => knowledge.byId.get(id ?? '')?.canonicalName;
    const tasks = demoTasks(knowledge);
    const itemsOf = (type: string, key: string) => {
      const seeded = tasks.filter((task) => task.pipeline.type === type);
      expect(seeded).toHaveLength(2);
      return seeded.map((task) => ({
        conceptId: task.condition?.conceptId,
        items: task.condition?.[key] as { id: string; text: string }[],
      }));
    };
    for (const { conceptId, items } of itemsOf('condition.medications', 'medications')) {
      expect(items.length, String(conceptId)).toBeGreaterThan(0);
      for (const item of items) {
        const treatment = treatments.find((x) => x.id === item.id);
        expect(treatment?.condition).toBe(conceptId);
        expect(nameOf(treatment?.medication)).toBe(item.text);
      }
    }
    for (const { conceptId, items } of itemsOf('condition.symptoms', 'symptoms')) {
      expect(items.length, String(conceptId)).toBeGreaterThan(0);
      for (const item of items) {
        const relationship = relationships.find((r) => r.id === item.id);
        expect(relationship).toMatchObject({ from: conceptId, correlation: 'Positive' });
        expect(nameOf(relationship?.to)).toBe(item.text);
      }
    }
  });

  it('are seeded once in demo mode', async () => {
    const t = await startTestApp();
    try {
      const { token } = await tokenForRoles(t, 'demo@example.test', ['annotator']);
      const response = await t.app.inject({
        method: 'GET',
        url: `${BASE}/3`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.json().stats.steps).toEqual([
        { add_observations: { jobs: 2, taken: 0 } },
        { observation_relationships: { jobs: 2, taken: 0 } },
        { internal_approval: { jobs: 2, taken: 0 } },
        { external_approval: { jobs: 2, taken: 0 } },
      ]);
      const task = (
        await t.app.inject({
          method: 'GET',
          url: `${BASE}/3/steps/observation_relationships/_pop`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).json<AsyncTask>();
      expect((task.condition.observations as unknown[]).length).toBeGreaterThan(0);
      // A restart seeds nothing more.
      const again = await seedDemoTasks(
        t.database.db,
        createAsyncJobsService(t.database.db, { leaseMs: 1000 }),
        () => demoTasks(loadKnowledge('data/kb/kb.json')),
        t.app.log,
      );
      expect(again).toBe(0);
    } finally {
      await t.close();
    }
  });
});
