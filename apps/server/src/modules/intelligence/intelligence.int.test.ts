import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_NAMES } from '@loopdesk/contracts/intelligence.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

type Row = Record<string, unknown>;
/** A JSON list of the answer, for lookups. */
const list = (value: unknown): Row[] => value as Row[];
import { KnowledgeBaseError, loadKnowledge } from '../knowledge/knowledge.ts';

describe('ontology, typeahead and differential API', () => {
  let t: TestApp;
  let medical: string;
  let annotator: string;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    medical = (await tokenForRoles(t, 'meg@example.test', ['medical'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, token = medical) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const post = (url: string, payload: unknown, token = medical) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: { authorization: `Bearer ${token}` },
    });

  describe('GET /internal/utilities/typeahead', () => {
    it("finds abdominal pain for 'tummy', with aliases as index and the matched name", async () => {
      const response = await get('/internal/utilities/typeahead?t=tummy');
      expect(response.statusCode).toBe(200);
      const { results } = response.json();
      const pain = list(results).find((r) => r.conceptId === 'LD:abdominal-pain');
      expect(pain).toEqual({
        conceptId: 'LD:abdominal-pain',
        canonicalName: 'abdominal pain',
        name: 'tummy ache',
        index: expect.arrayContaining(['tummy ache', 'stomach ache']),
        // Spec 2 §3's concept option: relevance, types and sources.
        relevance: expect.any(Number) as number,
        types: ['Sign or Symptom'],
        sources: expect.arrayContaining([{ system: 'UMLS', code: 'C0000737' }]),
      });
    });

    it('finds a concept through a typo', async () => {
      const response = await get('/internal/utilities/typeahead?t=diarhea');
      expect(response.statusCode).toBe(200);
      expect(response.json().results[0]).toMatchObject({ conceptId: 'LD:diarrhea' });
    });

    it('type=trained keeps conditions and observations only', async () => {
      const all = (await get('/internal/utilities/typeahead?t=tummy&type=concept')).json();
      expect(all.results[0].conceptId).toBe('LD:location/abdomen');
      const trained = (await get('/internal/utilities/typeahead?t=tummy&type=trained')).json();
      const ids = list(trained.results).map((r) => r.conceptId);
      expect(ids).toContain('LD:abdominal-pain');
      expect(ids).not.toContain('LD:location/abdomen');
    });

    it('refuses fewer than 3 characters and an unknown type', async () => {
      for (const url of [
        '/internal/utilities/typeahead?t=ab',
        '/internal/utilities/typeahead?t=%20%20ab%20',
        '/internal/utilities/typeahead',
      ]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(400);
      }
      expect((await get('/internal/utilities/typeahead?t=ab')).json()).toMatchObject({
        error: 'Bad Request',
        message: 'Type at least 3 characters to search (got 2).',
      });
      const wrongType = await get('/internal/utilities/typeahead?t=tummy&type=other');
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json().message).toMatch(/'concept' or 'trained'/);
    });

    it('a text too long or given twice says so', async () => {
      const long = await get(`/internal/utilities/typeahead?t=${'a'.repeat(201)}`);
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe(
        'Invalid querystring: querystring.t must be at most 200 characters',
      );
      const twice = await get('/internal/utilities/typeahead?t=tummy&t=ache');
      expect(twice.statusCode).toBe(400);
      expect(twice.json().message).toMatch(/querystring\.t is required once/);
    });

    it('needs a sign-in', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/internal/utilities/typeahead?t=tummy',
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('concept search and the async concept query', () => {
    it('searches by dataType classes', async () => {
      const response = await post('/internal/intelligence/ontology/concepts/_search', {
        query: 'tummy',
        dataType: ['symptom'],
      });
      expect(response.statusCode).toBe(200);
      const { results } = response.json();
      expect(results[0]).toMatchObject({
        conceptId: 'LD:abdominal-pain',
        canonicalName: 'abdominal pain',
        class: 'symptom',
        index: expect.arrayContaining(['tummy ache']),
      });
      expect(list(results).every((r) => r.class === 'symptom')).toBe(true);
    });

    it("'observation' also covers signs and symptoms; no dataType searches every class", async () => {
      const observation = await post('/internal/intelligence/ontology/concepts/_search', {
        query: 'fever',
        dataType: ['observation'],
      });
      expect(observation.json().results[0]).toMatchObject({ conceptId: 'LD:fever' });
      const all = await post('/internal/intelligence/ontology/concepts/_search', { query: 'flu' });
      expect(all.json().results[0]).toMatchObject({ conceptId: 'LD:influenza' });
    });

    it('refuses an empty or short query, an unknown class and a bad limit, saying what to fix', async () => {
      const search = '/internal/intelligence/ontology/concepts/_search';
      for (const query of [' ', 'ab', ' ab ']) {
        const short = await post(search, { query });
        expect(short.statusCode, query).toBe(400);
        expect(short.json()).toMatchObject({
          message:
            'Invalid body: body.query needs at least 3 characters (spaces around it do not count)',
          details: [{ path: 'body.query' }],
        });
      }
      const missing = await post(search, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe(
        'Invalid body: body.query is required: the text to search for',
      );
      const notList = await post(search, { query: 'fever', dataType: 'symptom' });
      expect(notList.statusCode).toBe(400);
      expect(notList.json().message).toMatch(/body\.dataType must be a list of concept classes/);
      const limit = await post(search, { query: 'fever', limit: 0 });
      expect(limit.statusCode).toBe(400);
      expect(limit.json().message).toBe(
        'Invalid body: body.limit must be a whole number from 1 to 100',
      );
      const wrong = await post('/internal/intelligence/ontology/concepts/_search', {
        query: 'fever',
        dataType: ['planet'],
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().details[0]).toEqual({
        path: 'body.dataType.0',
        message: expect.stringMatching(/^must be a concept class: one of condition, /) as string,
      });
    });

    it('the async data query answers conceptId and aliases, for jobs:async:perform', async () => {
      const response = await get(
        '/internal/async-jobs/data/concept/_query?q=throwing%20up',
        annotator,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json().results[0]).toMatchObject({
        conceptId: 'LD:vomiting',
        aliases: expect.arrayContaining(['throwing up']),
      });
      expect((await get('/internal/async-jobs/data/concept/_query', annotator)).statusCode).toBe(
        400,
      );
      const short = await get('/internal/async-jobs/data/concept/_query?q=ab', annotator);
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toMatch(/querystring\.q needs at least 3 characters/);
      expect(
        (await get('/internal/async-jobs/data/concept/_query?q=fever', admin)).statusCode,
      ).toBe(403);
    });
  });

  describe('ontology classes and models', () => {
    it('lists the concepts of a class, sorted by display', async () => {
      const response = await get(
        '/internal/intelligence/ontology/concepts/_classes?classType=bodySystem',
      );
      expect(response.statusCode).toBe(200);
      const { items } = response.json();
      expect(items).toContainEqual({ id: 'LD:system/digestive', display: 'digestive system' });
      const displays = list(items).map((i) => String(i.display));
      expect(displays).toEqual([...displays].sort((a, b) => a.localeCompare(b)));
      const observations = (
        await get('/internal/intelligence/ontology/concepts/_classes?classType=observation')
      ).json().items;
      expect(observations).toContainEqual({ id: 'LD:fever', display: 'fever' });
    });

    it('an unknown or missing class is a 400 listing the valid ones', async () => {
      for (const url of [
        '/internal/intelligence/ontology/concepts/_classes?classType=planet',
        '/internal/intelligence/ontology/concepts/_classes',
      ]) {
        const response = await get(url);
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(
          /use one of 'condition', 'observation'.*'vocabulary'/,
        );
      }
    });

    it('lists each model; an unknown one is a 404', async () => {
      const conditions = (await get('/internal/intelligence/ontology/models/conditions')).json();
      expect(conditions.items).toContainEqual({ bid: 'LD:appendicitis', display: 'appendicitis' });
      for (const model of MODEL_NAMES) {
        const response = await get(`/internal/intelligence/ontology/models/${model}`);
        expect(response.statusCode, model).toBe(200);
        expect(response.json().items.length, model).toBeGreaterThan(0);
      }
      const unknown = await get('/internal/intelligence/ontology/models/planets');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/No model 'planets'.*'conditions'/);
    });

    it('lists relationships, with names, correlation and weight when metadata=true', async () => {
      const plain = (await get('/internal/intelligence/ontology/models/relationships')).json();
      const edge = list(plain.items).find(
        (r) => r.from === 'LD:appendicitis' && r.to === 'LD:rlq-pain',
      );
      expect(Object.keys(edge ?? {}).sort()).toEqual(['bid', 'from', 'to']);
      const rich = (
        await get('/internal/intelligence/ontology/models/relationships?metadata=true')
      ).json();
      expect(list(rich.items).find((r) => r.bid === edge?.bid)).toMatchObject({
        fromDisplay: 'appendicitis',
        toDisplay: 'right lower abdominal pain',
        correlation: 'Positive',
        weight: expect.any(Number),
        basis: expect.stringMatching(/^clinician-authored/),
      });
      expect(
        (await get('/internal/intelligence/ontology/models/relationships?metadata=maybe'))
          .statusCode,
      ).toBe(400);
    });

    it('draws the subgraph of a condition, filtered by repeated classExtensions', async () => {
      const id = encodeURIComponent('LD:appendicitis');
      const full = await get(`/internal/intelligence/ontology/models/conditions/${id}/_subgraph`);
      expect(full.statusCode).toBe(200);
      const graph = full.json();
      expect(graph.vertexes).toContainEqual({
        bid: 'LD:appendicitis',
        class: 'condition',
        display: 'appendicitis',
      });
      expect(graph.edges).toContainEqual(
        expect.objectContaining({ from: 'LD:appendicitis', to: 'LD:rlq-pain', rel: 'suggests' }),
      );
      const filtered = (
        await get(
          `/internal/intelligence/ontology/models/conditions/${id}/_subgraph?classExtensions=condition&classExtensions=bodySystem`,
        )
      ).json();
      const classes = new Set(list(filtered.vertexes).map((v) => v.class));
      expect([...classes].sort()).toEqual(['bodySystem', 'condition']);
      const one = (
        await get(
          `/internal/intelligence/ontology/models/conditions/${id}/_subgraph?classExtensions=question`,
        )
      ).json();
      expect(list(one.vertexes).some((v) => v.class === 'observation')).toBe(false);
    });

    it('subgraph: unknown id or model 404, unknown class 400, needs graph:inspect:all', async () => {
      const unknown = await get(
        '/internal/intelligence/ontology/models/conditions/LD%3Anothing/_subgraph',
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(
        "No condition with the id 'LD:nothing'. The condition model lists them.",
      );
      const symptom = await get(
        '/internal/intelligence/ontology/models/conditions/LD%3Afever/_subgraph',
      );
      expect(symptom.statusCode).toBe(404);
      expect(symptom.json().message).toBe(
        "'LD:fever' is an observation, not a condition: subgraphs are drawn around conditions.",
      );
      expect(
        (await get('/internal/intelligence/ontology/models/planets/LD%3Aappendicitis/_subgraph'))
          .statusCode,
      ).toBe(404);
      const badClass = await get(
        '/internal/intelligence/ontology/models/conditions/LD%3Aappendicitis/_subgraph?classExtensions=planet',
      );
      expect(badClass.statusCode).toBe(400);
      expect(badClass.json().message).toMatch(/Unknown classExtensions 'planet'/);
      const refused = await get(
        '/internal/intelligence/ontology/models/conditions/LD%3Aappendicitis/_subgraph',
        annotator,
      );
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('clinical inference lists', () => {
    it('counts and pages the ontology, each entry keyed by c', async () => {
      const { count } = (
        await get('/internal/intelligence/clinical_inference/ontology/_count')
      ).json();
      expect(count).toBe(loadKnowledge('data/kb/kb.json').kb.items.concepts.length);
      const first = (
        await get('/internal/intelligence/clinical_inference/ontology?p=0&s=10')
      ).json();
      expect(first.items).toHaveLength(10);
      expect(first).toMatchObject({ page: 0, size: 10, total: count });
      expect(first.items[0]).toEqual({
        c: expect.stringMatching(/^LD:/),
        display: expect.any(String),
        class: expect.any(String),
        aliases: expect.any(Array),
        codes: expect.any(Array),
        ...(first.items[0].cui ? { cui: first.items[0].cui } : {}),
      });
      const second = (
        await get('/internal/intelligence/clinical_inference/ontology?p=1&s=10')
      ).json();
      expect(second.items[0].c).not.toBe(first.items[0].c);
      const all = (await get('/internal/intelligence/clinical_inference/ontology?s=10000')).json();
      expect(all.items).toHaveLength(count);
      const beyond = (
        await get('/internal/intelligence/clinical_inference/ontology?p=99&s=10000')
      ).json();
      expect(beyond.items).toEqual([]);
    });

    it('refuses a page size over 10000 or under 1, a negative page or one that is no number', async () => {
      const big = await get('/internal/intelligence/clinical_inference/ontology?s=10001');
      expect(big.statusCode).toBe(400);
      expect(big.json().message).toMatch(/querystring\.s must be at most 10000/);
      for (const [query, message] of [
        ['p=-1', /querystring\.p must be 0 or more/],
        ['p=a&s=10', /querystring\.p must be a page number from 0/],
        ['p=0&s=0', /querystring\.s must be at least 1/],
      ] as const) {
        const response = await get(`/internal/intelligence/clinical_inference/ontology?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message, query).toMatch(message);
      }
    });

    it('lists conditions and observations with bid, codes, display, name; more with metadata', async () => {
      const conditions = (await get('/internal/intelligence/clinical_inference/conditions')).json();
      const appendicitis = list(conditions.items).find((c) => c.bid === 'LD:appendicitis');
      expect(appendicitis).toEqual({
        bid: 'LD:appendicitis',
        codes: expect.arrayContaining([{ system: 'UMLS', code: 'C0003615' }]),
        display: 'appendicitis',
        name: 'appendicitis',
      });
      const rich = (
        await get('/internal/intelligence/clinical_inference/conditions?metadata=true')
      ).json();
      expect(list(rich.items).find((c) => c.bid === 'LD:appendicitis')).toMatchObject({
        class: 'condition',
        acuity: 'emergent',
        prevalence: 'uncommon',
        aliases: expect.arrayContaining(['inflamed appendix']),
        bodySystems: expect.arrayContaining(['LD:system/digestive']),
      });
      const observations = (
        await get('/internal/intelligence/clinical_inference/observations')
      ).json();
      expect(observations.items).toContainEqual(
        expect.objectContaining({ bid: 'LD:fever', name: 'fever', display: 'fever' }),
      );
      expect(list(observations.items).some((o) => o.bid === 'LD:appendicitis')).toBe(false);
    });
  });

  describe('POST /internal/intelligence/clinical_inference/differential_diagnosis', () => {
    const url = '/internal/intelligence/clinical_inference/differential_diagnosis';

    it('ranks appendicitis first for its classic presentation, probabilities as numbers', async () => {
      const response = await post(url, {
        observations: [
          { observation: 'right lower abdominal pain' },
          { observation: 'fever', weight: 1 },
          { observation: 'nausea' },
          { observation: 'loss of appetite' },
        ],
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.inference[0]).toMatchObject({
        condition: 'appendicitis',
        conditionId: 'LD:appendicitis',
        acuity: 'emergent',
        probability: expect.any(Number),
      });
      expect(body.inference[0].probability).toBeGreaterThan(0.5);
      expect(body.inference[0].associatedObservations).toContainEqual({
        observation: 'right lower abdominal pain',
        observationId: 'LD:rlq-pain',
        weight: expect.any(Number),
      });
      expect(body.acuity).toBe('emergent');
      expect(body.differentiatingObservations.length).toBeGreaterThan(0);
      for (const d of body.differentiatingObservations) {
        expect(typeof d.relevance).toBe('number');
        expect(d.relevance).toBeGreaterThanOrEqual(0);
        expect(d.relevance).toBeLessThanOrEqual(1);
      }
      const probabilities = list(body.inference).map((e) => Number(e.probability));
      expect(probabilities).toEqual([...probabilities].sort((a, b) => b - a));
      expect(body.unknownObservations).toEqual([]);
    });

    it('takes aliases, reports unknown observations, and honours weights', async () => {
      const body = (
        await post(url, {
          observations: [
            { observation: 'high temperature' },
            { observation: 'muscle aches' },
            { observation: 'cough' },
            { observation: 'xyzzy' },
          ],
        })
      ).json();
      expect(body.inference[0].condition).toBe('influenza');
      expect(body.unknownObservations).toEqual(['xyzzy']);
      const ignored = (
        await post(url, { observations: [{ observation: 'fever', weight: 0 }] })
      ).json();
      expect(list(ignored.inference).every((e) => Number(e.probability) < 0.5)).toBe(true);
    });

    it('refuses a missing or empty list and a negative weight', async () => {
      for (const payload of [
        {},
        { observations: [] },
        { observations: [{ observation: 'fever', weight: -1 }] },
        { observations: [{ weight: 1 }] },
      ]) {
        const response = await post(url, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().error).toBe('Bad Request');
      }
      const negative = await post(url, { observations: [{ observation: 'fever', weight: -1 }] });
      expect(negative.json().message).toBe(
        'Invalid body: body.observations.0.weight must be a number from 0 to 100',
      );
      const unnamed = await post(url, { observations: [{ observation: ' ', weight: 1 }] });
      expect(unnamed.json().message).toBe(
        'Invalid body: body.observations.0.observation must not be empty',
      );
    });

    it('needs test:differentialdiagnosis:perform or patient:conversations:read', async () => {
      const response = await post(url, { observations: [{ observation: 'fever' }] }, annotator);
      expect(response.statusCode).toBe(403);
    });
  });

  describe('GET /internal/intelligence/conversations/{id}/clinical_inference/differential_diagnosis', () => {
    const url = (id: string) =>
      `/internal/intelligence/conversations/${id}/clinical_inference/differential_diagnosis`;
    let key: string;
    const v1 = (method: 'PUT' | 'POST', path: string, payload: unknown) =>
      t.app.inject({
        method,
        url: path,
        payload: payload as Record<string, unknown>,
        headers: { authorization: `Bearer ${key}` },
      });

    beforeAll(async () => {
      const created = await post('/internal/integration/api-keys', { name: 'ddx-test' }, admin);
      key = created.json().key;
      // The assistant registers a conversation; the patient describes pneumonia, then worsens.
      const put = await v1('PUT', '/api/v1/conversations/ddx-1', {
        tenant: 'acme-clinic',
        botConversationId: 'bot-ddx-1',
        consumer: { id: 'patient-ddx-1', name: { given: 'Pat', family: 'Doe' } },
      });
      expect(put.statusCode, put.body).toBe(201);
      for (const [id, direction, content] of [
        ['m1', 'OUT', 'Hello, what brings you here today? Any fever or chest pain?'],
        ['m2', 'IN', 'I have a fever and I am coughing up green phlegm. My dad has asthma.'],
        ['m3', 'IN', 'It hurts to breathe in and I am short of breath'],
      ] as const) {
        const said = await v1('POST', '/api/v1/conversations/ddx-1/messages', {
          id,
          direction,
          content,
        });
        expect(said.statusCode, said.body).toBe(201);
      }
    });

    it("ranks the patient's own findings into a differential under value, with acuity", async () => {
      const response = await get(url('ddx-1'));
      expect(response.statusCode, response.body).toBe(200);
      const { value } = response.json<{
        value: {
          conversationId: string;
          observations: Row[];
          inference: Row[];
          differentiatingObservations: Row[];
          acuity: string;
          acuityRing: number;
        };
      }>();
      expect(value.conversationId).toBe('ddx-1');
      // The assistant's question (OUT) and the father's asthma are not the patient's findings.
      const ids = value.observations.map((o) => o.observationId);
      expect(ids).toEqual(
        expect.arrayContaining(['LD:fever', 'LD:productive-cough', 'LD:pleuritic-chest-pain']),
      );
      expect(ids).not.toContain('LD:chest-pain');
      expect(ids).not.toContain('LD:asthma');
      const top = value.inference[0] as Row;
      expect(top).toMatchObject({ conditionName: 'pneumonia', conditionId: 'LD:pneumonia' });
      expect(top.probability).toBeGreaterThan(0.5);
      expect(top.complications).toContainEqual(
        expect.objectContaining({ id: 'LD:pneumonia~sepsis', acuity: 'emergent' }),
      );
      expect(value.acuity).toBe('urgent');
      expect(value.acuityRing).toBe(60);
      expect(value.differentiatingObservations.length).toBeGreaterThan(0);
    });

    it('an endorsed emergent complication raises the acuity (spec 3 §4)', async () => {
      const said = await v1('POST', '/api/v1/conversations/ddx-1/messages', {
        id: 'm4',
        direction: 'IN',
        content: 'Now I feel really confused and drowsy',
      });
      expect(said.statusCode, said.body).toBe(201);
      const { value } = (await get(url('ddx-1'))).json<{
        value: { inference: Row[]; acuity: string; acuityRing: number };
      }>();
      const pneumonia = value.inference.find((e) => e.conditionId === 'LD:pneumonia') as Row;
      expect(pneumonia.complications).toContainEqual(
        expect.objectContaining({ id: 'LD:pneumonia~sepsis', response: 'endorse' }),
      );
      expect(value.acuity).toBe('emergent');
      expect(value.acuityRing).toBe(100);
    });

    it('an unknown conversation or another tenant is a 404; it needs patient:conversations:read', async () => {
      const missing = await get(url('no-such-conversation'));
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(
        "Conversation not found - no conversation with the id 'no-such-conversation'",
      );
      const other = await t.app.inject({
        method: 'GET',
        url: url('ddx-1'),
        headers: { authorization: `Bearer ${medical}`, 'x-tenant-id': 'other-clinic' },
      });
      expect(other.statusCode).toBe(404);
      expect((await get(url('ddx-1'), annotator)).statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'GET', url: url('ddx-1') });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  it('a missing or broken knowledge base stops the start with the reason', () => {
    expect(() => loadKnowledge('data/kb/missing.json')).toThrow(KnowledgeBaseError);
    expect(() => loadKnowledge('package.json')).toThrow(/KB_PATH .*does not match the format/);
  });
});
