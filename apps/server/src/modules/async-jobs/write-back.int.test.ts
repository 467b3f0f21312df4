import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';
import type { KnowledgeRevisionList } from '@loopdesk/contracts/knowledge-revisions.ts';
import { buildApp } from '../../app.ts';
import { createInProcessBus } from '../../platform/bus.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import type { KbChange } from '@loopdesk/clinical/kb/revise.ts';
import { loadKnowledge } from '../knowledge/knowledge.ts';
import { createKnowledgeRevisions } from '../knowledge/revisions.ts';
import { findPipeline } from './pipelines.ts';
import { medicationsTask, symptomsTask } from './seed.ts';
import { createAsyncJobsService } from './service.ts';
import { PIPELINES_PATH, asyncJobsClient } from './test-client.ts';

const knowledge = loadKnowledge('data/kb/kb.json');
const BASE_VERSION = knowledge.kb.kbVersion;

type Search = { results: { canonicalName: string; conceptId: string; class: string }[] };
type Relationships = {
  items: { bid: string; from: string; to: string; toDisplay: string; weight: number }[];
};
type Prediction = {
  inference: { conditionId: string; associatedObservations: { observation: string }[] }[];
};

describe('knowledge write-back', () => {
  let t: TestApp;
  let ann: { token: string; userId: string };
  let bob: { token: string; userId: string };
  let api: ReturnType<typeof asyncJobsClient>;

  beforeAll(async () => {
    t = await startTestApp({ env: { DEMO: '0' } });
    ann = await tokenForRoles(t, 'ann@example.test', ['annotator']);
    bob = await tokenForRoles(t, 'bob@example.test', ['approver']);
    api = asyncJobsClient(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async <T>(url: string, app = t.app): Promise<T> => {
    const response = await app.inject({ method: 'GET', url, headers: api.as(ann.token) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const search = async (query: string, app = t.app) => {
    const response = await app.inject({
      method: 'POST',
      url: '/internal/intelligence/ontology/concepts/_search',
      headers: api.as(ann.token),
      payload: { query, dataType: [] },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Search>().results;
  };
  const relationshipsOf = async (conditionId: string) =>
    (
      await get<Relationships>('/internal/intelligence/ontology/models/relationships?metadata=true')
    ).items.filter((r) => r.from === conditionId);
  const addTask = async (pipeline: number, condition: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${PIPELINES_PATH}/${pipeline}/_add_task`,
      headers: api.as(ann.token),
      payload: { data: { condition, reference: 'Clinical review 2026', cui: null } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<AsyncTask>();
  };
  const revisions = () => get<KnowledgeRevisionList>('/internal/async-jobs/knowledge/revisions');

  it('complications: the approved new complication is found by concept search, the struck one is gone, versioned with the task id', async () => {
    const added = await addTask(4, 'pneumonia');
    // First, Ann adds two complications: one free text, one concept from the typeahead.
    let task = await api.take(ann.token, 4, 'add_complications');
    expect(task.id).toBe(added.id);
    await api.complete(ann.token, task, {
      complications: [
        { complication: 'Lung abscess', complicationCUI: null },
        { complication: 'sepsis', complicationCUI: 'LD:sepsis' },
      ],
    });
    expect(await search('lung abscess')).not.toContainEqual(
      expect.objectContaining({ canonicalName: 'Lung abscess' }),
    );
    // Second, Bob strikes out a complication in the internal approval and approves externally.
    task = await api.take(bob.token, 4, 'internal_approval');
    task = await api.complete(bob.token, task, {
      complications_removed: ['LD:pneumonia~respiratory-failure'],
      complications: [],
    });
    expect((await revisions()).revisions).toEqual([]);
    task = await api.take(bob.token, 4, 'external_approval');
    const done = await api.complete(bob.token, task, {
      complications_removed: [],
      complications: [],
    });
    expect(done).toMatchObject({
      state: 'COMPLETED',
      metadata: { kbRevision: 1, kbVersion: `${BASE_VERSION}+rev.1` },
    });

    // Concept search finds the new complication at once.
    expect(await search('lung absces')).toContainEqual(
      expect.objectContaining({ canonicalName: 'Lung abscess', class: 'condition' }),
    );
    const list = await revisions();
    expect(list.kbVersion).toBe(`${BASE_VERSION}+rev.1`);
    expect(list.revisions).toEqual([
      expect.objectContaining({
        revision: 1,
        kbVersion: `${BASE_VERSION}+rev.1`,
        baseVersion: BASE_VERSION,
        taskId: added.id,
        pipelineId: 4,
        createdBy: 'bob@example.test',
        applied: true,
        summary: {
          condition: 'pneumonia',
          // sepsis was already a complication of pneumonia: nothing to add.
          added: ['complication Lung abscess'],
          changed: [],
          removed: ['complication severe breathing difficulty'],
        },
      }),
    ]);
    // The next complications task of pneumonia starts from the new version.
    const next = await addTask(4, 'pneumonia');
    expect(
      (next.condition.complications as { id: string; name: string }[]).map((c) => c.name),
    ).toEqual(['sepsis', 'Lung abscess']);
    const again = await api.take(ann.token, 4, 'add_complications');
    expect((await api.discard(ann.token, again, 'Checked already')).statusCode).toBe(200);
  });

  it('observations: added, re-weighted and struck relationships change the differential', async () => {
    await addTask(3, 'pneumonia');
    let task = await api.take(ann.token, 3, 'add_observations');
    task = await api.complete(ann.token, task, {
      observations: [
        { observation: 'rusty phlegm', observationCUI: null, observationClass: 'symptom' },
        { observation: 'pink frothy phlegm', observationCUI: null, observationClass: 'sign' },
      ],
    });
    task = await api.take(ann.token, 3, 'observation_relationships');
    const observations = task.condition.observations as {
      id: string;
      name: string;
      correlation: string;
      weight: string;
    }[];
    const fever = observations.find((o) => o.id === 'LD:pneumonia>fever');
    const frothy = observations.find((o) => o.name === 'pink frothy phlegm');
    expect(fever && frothy).toBeTruthy();
    await api.complete(ann.token, task, {
      removedObservations: ['LD:pneumonia>older-age'],
      observations: [
        { ...fever, weight: 'Low' },
        { ...frothy, weight: 'High' },
      ],
    });
    for (const step of ['internal_approval', 'external_approval']) {
      task = await api.take(bob.token, 3, step);
      // The approval screens send every observation they keep (at least 1, spec 3 §5); one
      // struck out earlier stays struck unless it is sent again as kept.
      await api.complete(bob.token, task, {
        removedObservations: [],
        observations: (task.condition.observations as { removed?: boolean }[]).filter(
          (o) => o.removed !== true,
        ),
      });
    }

    const edges = await relationshipsOf('LD:pneumonia');
    const weightOf = (to: string) => edges.find((e) => e.toDisplay === to)?.weight;
    expect(weightOf('fever')).toBe(0.25);
    // 'rusty phlegm' is an alias of a known sign: it joins that concept, not a new one.
    expect(edges.some((e) => e.to === 'LD:sputum-rust')).toBe(true);
    expect(weightOf('pink frothy phlegm')).toBe(0.85);
    expect(edges.some((e) => e.bid === 'LD:pneumonia>older-age')).toBe(false);

    const medical = await tokenForRoles(t, 'meg@example.test', ['medical']);
    const differential = await t.app.inject({
      method: 'POST',
      url: '/internal/intelligence/clinical_inference/differential_diagnosis',
      headers: api.as(medical.token),
      payload: { observations: [{ observation: 'pink frothy phlegm', weight: 1 }] },
    });
    expect(differential.statusCode, differential.body).toBe(200);
    const top = differential.json<Prediction>().inference[0];
    expect(top).toMatchObject({ conditionId: 'LD:pneumonia' });
    expect(top?.associatedObservations.map((o) => o.observation)).toContain('pink frothy phlegm');
    expect((await revisions()).revisions.at(-1)?.summary).toMatchObject({
      condition: 'pneumonia',
      changed: ['observation fever (Positive, Low)'],
      removed: [expect.stringMatching(/^observation .*(age|50)/)],
    });
  });

  it('medications and symptoms: approved additions and removals revise the KB the search serves, versioned, with the task id as provenance', async () => {
    const service = createAsyncJobsService(t.database.db, { leaseMs: 60_000 });
    const medications = findPipeline('10');
    const symptoms = findPipeline('11');
    const migraine = knowledge.byId.get('LD:migraine');
    if (!medications || !symptoms || !migraine) {
      throw new Error('pipelines 10 and 11 and the KB condition migraine exist');
    }
    const revisionOf = async (taskId: string) => {
      const row = await t.database.db
        .selectFrom('kb_revisions')
        .select(['revision', 'change'])
        .where('task_id', '=', taskId)
        .executeTakeFirstOrThrow();
      return row as { revision: number; change: KbChange };
    };
    const fromTask = (taskId: string) => ({
      source: 'Loopdesk async jobs',
      reference: `task ${taskId}`,
    });

    // The task lists what the shipped KB holds for migraine, as the demo seeds it.
    const made = medicationsTask(knowledge, migraine);
    expect(made.condition.medications.map((m) => m.text)).toEqual([
      'ibuprofen',
      'aspirin',
      'paracetamol',
      'sumatriptan',
    ]);
    await service.insert({ pipeline: medications, ...made });
    let task = await api.take(bob.token, 10, 'medications_approval');
    const before = (await revisions()).revisions.length;
    let done = await api.complete(bob.token, task, {
      medications_removed: ['LD:migraine+aspirin'],
      // One the KB lacks, one it has under another name (the US name of paracetamol is taken
      // already: nothing to add), and one known medication new to migraine.
      medications: [{ text: 'Rizatriptan' }, { text: 'acetaminophen' }, { text: 'Naproxen' }],
    });
    const revision = before + 1;
    expect(done).toMatchObject({
      state: 'COMPLETED',
      metadata: { kbRevision: revision, kbVersion: `${BASE_VERSION}+rev.${revision}` },
    });
    expect((await revisions()).revisions.at(-1)).toMatchObject({
      revision,
      kbVersion: `${BASE_VERSION}+rev.${revision}`,
      taskId: task.id,
      pipelineId: 10,
      createdBy: 'bob@example.test',
      summary: {
        condition: 'migraine',
        added: ['medication Rizatriptan', 'medication naproxen'],
        changed: [],
        removed: ['medication aspirin'],
      },
    });
    const { change } = await revisionOf(task.id);
    expect(change.upsert.concepts).toEqual([
      expect.objectContaining({
        id: 'LD:rizatriptan',
        class: 'medication',
        provenance: [fromTask(task.id)],
      }),
    ]);
    expect(change.upsert.treatments).toEqual([
      expect.objectContaining({ medication: 'LD:rizatriptan', provenance: [fromTask(task.id)] }),
      expect.objectContaining({ medication: 'LD:naproxen', provenance: [fromTask(task.id)] }),
    ]);
    expect(await search('rizatrip')).toContainEqual(
      expect.objectContaining({ canonicalName: 'Rizatriptan', class: 'medication' }),
    );
    const classes = await get<{ items: { id: string; display: string }[] }>(
      '/internal/intelligence/ontology/concepts/_classes?classType=medication',
    );
    expect(classes.items.map((i) => i.display)).toEqual(
      expect.arrayContaining(['Rizatriptan', 'naproxen', 'aspirin']),
    );

    // The next medications task of migraine starts from the revised KB.
    const served = createKnowledgeRevisions({ db: t.database.db, base: knowledge, log: t.app.log });
    await served.refresh();
    const next = medicationsTask(served.knowledge, migraine);
    expect(next.condition.medications.map((m) => m.text)).toEqual([
      'ibuprofen',
      'paracetamol',
      'sumatriptan',
      'Rizatriptan',
      'naproxen',
    ]);

    // Symptoms: strike vomiting, add a known sign by its lay name and a symptom the KB lacks.
    await service.insert({ pipeline: symptoms, ...symptomsTask(knowledge, migraine) });
    task = await api.take(bob.token, 11, 'symptoms_approval');
    const listed = task.condition.symptoms as { id: string; text: string }[];
    expect(listed).toContainEqual({ id: 'LD:migraine>vomiting', text: 'vomiting' });
    done = await api.complete(bob.token, task, {
      symptoms_removed: ['LD:migraine>vomiting'],
      symptoms: [{ text: 'night sweats' }, { text: 'tingling face' }],
    });
    expect(done.metadata).toMatchObject({
      kbRevision: revision + 1,
      kbVersion: `${BASE_VERSION}+rev.${revision + 1}`,
    });
    expect((await revisions()).revisions.at(-1)).toMatchObject({
      taskId: task.id,
      pipelineId: 11,
      summary: {
        condition: 'migraine',
        added: ['symptom night sweats', 'symptom tingling face'],
        removed: ['symptom vomiting'],
      },
    });
    const symptomChange = (await revisionOf(task.id)).change;
    expect(symptomChange.upsert.concepts).toEqual([
      expect.objectContaining({ id: 'LD:tingling-face', provenance: [fromTask(task.id)] }),
    ]);
    expect(symptomChange.upsert.relationships.map((r) => r.provenance)).toEqual([
      [fromTask(task.id)],
      [fromTask(task.id)],
    ]);
    const edges = await relationshipsOf('LD:migraine');
    expect(edges.map((e) => e.to)).toEqual(
      expect.arrayContaining(['LD:night-sweats', 'LD:tingling-face']),
    );
    expect(edges.some((e) => e.to === 'LD:vomiting')).toBe(false);
    expect(await search('tingling face')).toContainEqual(
      expect.objectContaining({ conceptId: 'LD:tingling-face', class: 'symptom' }),
    );
  });

  it('the revisions need a sign-in and jobs:async:perform', async () => {
    const url = '/internal/async-jobs/knowledge/revisions';
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const eve = await tokenForRoles(t, 'eve@example.test', ['experimental']);
    const refused = await t.app.inject({ method: 'GET', url, headers: api.as(eve.token) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/jobs:async:perform/);
  });

  it('a condition new to the knowledge base becomes a condition concept with its approved complications', async () => {
    const added = await addTask(4, 'Alpha-gal syndrome');
    expect(added.condition).toMatchObject({ name: 'Alpha-gal syndrome', complications: [] });
    let task = await api.take(ann.token, 4, 'add_complications');
    await api.complete(ann.token, task, {
      complications: [{ complication: 'anaphylaxis', complicationCUI: null }],
    });
    for (const step of ['internal_approval', 'external_approval']) {
      task = await api.take(bob.token, 4, step);
      task = await api.complete(bob.token, task, { complications_removed: [], complications: [] });
    }
    expect(await search('alpha-gal')).toContainEqual(
      expect.objectContaining({ canonicalName: 'Alpha-gal syndrome', class: 'condition' }),
    );
    // The complication joined the KB's anaphylaxis, and took its acuity.
    const next = await addTask(4, 'alpha-gal syndrome');
    expect(next.condition).toMatchObject({
      name: 'Alpha-gal syndrome',
      complications: [expect.objectContaining({ name: 'anaphylaxis', acuity: 'emergent' })],
    });
    const again = await api.take(ann.token, 4, 'add_complications');
    expect((await api.discard(ann.token, again, 'Checked already')).statusCode).toBe(200);
  });

  it('a completed task of another pipeline, or one that changes nothing, writes no revision', async () => {
    const before = (await revisions()).revisions.length;
    await addTask(4, 'pneumonia');
    let task = await api.take(ann.token, 4, 'add_complications');
    await api.complete(ann.token, task, {
      complications: [{ complication: 'sepsis', complicationCUI: 'LD:sepsis' }],
    });
    for (const step of ['internal_approval', 'external_approval']) {
      task = await api.take(bob.token, 4, step);
      task = await api.complete(bob.token, task, { complications_removed: [], complications: [] });
    }
    expect(task.state).toBe('COMPLETED');
    expect(task.metadata.kbRevision).toBeUndefined();
    expect((await revisions()).revisions).toHaveLength(before);
  });

  it('survives a restart, and a second node serves a revision the first one wrote', async () => {
    const bus = createInProcessBus();
    const nodeA = await buildApp({ config: t.config, database: t.database, logger: false, bus });
    const nodeB = await buildApp({ config: t.config, database: t.database, logger: false, bus });
    try {
      // A restarted node replays every revision.
      expect(await search('lung abscess', nodeA)).toContainEqual(
        expect.objectContaining({ canonicalName: 'Lung abscess' }),
      );
      const list = await get<KnowledgeRevisionList>(
        '/internal/async-jobs/knowledge/revisions',
        nodeB,
      );
      expect(list).toEqual(await revisions());

      // Node A completes a complication; node B finds it through the bus event.
      const a = asyncJobsClient(nodeA);
      const response = await nodeA.inject({
        method: 'POST',
        url: `${PIPELINES_PATH}/4/_add_task`,
        headers: a.as(ann.token),
        payload: { data: { condition: 'migraine', reference: 'ICHD-3' } },
      });
      expect(response.statusCode).toBe(201);
      let task = await a.take(ann.token, 4, 'add_complications');
      await a.complete(ann.token, task, {
        complications: [{ complication: 'Status migrainosus', complicationCUI: null }],
      });
      for (const step of ['internal_approval', 'external_approval']) {
        task = await a.take(bob.token, 4, step);
        await a.complete(bob.token, task, { complications_removed: [], complications: [] });
      }
      await expect
        .poll(async () => (await search('status migrainosus', nodeB)).map((r) => r.canonicalName))
        .toContain('Status migrainosus');
    } finally {
      await nodeA.close();
      await nodeB.close();
      await bus.close();
    }
  });
});
