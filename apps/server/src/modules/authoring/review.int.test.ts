import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { approvedDocument, audits, author, entityAt, provenance, type Author } from './test-kit.ts';

const TEXT =
  'Adults with asthma may report fatigue and drenching sweats at night. Give ibuprofen with care. The cardiovascular system is spared.';

describe('authoring review: return with a comment, approve into the knowledge base (issue 13 item 5)', () => {
  let t: TestApp;
  let ann: Author;
  let bob: Author;
  let graph: { authorization: string };
  let key: string;

  const fatigue = entityAt(TEXT, 'fatigue', { category: 'Symptom', CUI: 'C0015672' });
  const sweats = entityAt(TEXT, 'drenching sweats at night', {
    category: 'Symptom',
    CUI: 'C0028081',
    preferredText: 'drenched at night',
  });
  const ibuprofen = entityAt(TEXT, 'ibuprofen', { category: 'Treatment', CUI: 'LD:ibuprofen' });
  const system = entityAt(TEXT, 'cardiovascular system', {
    category: 'Organ system',
    CUI: 'C0007226',
  });
  const care = entityAt(TEXT, 'care', { category: 'Other', CUI: 'C0231218' });
  const rowOf = (entity: { id: string; extract: string }, category: string, weight = '') => ({
    id: entity.id,
    entity: entity.extract,
    category,
    weight,
  });
  const annotations = {
    entities: [fatigue, sweats, ibuprofen, system, care],
    relationships: [
      rowOf(fatigue, 'Symptom', 'High'),
      rowOf(ibuprofen, 'Treatment'),
      rowOf(system, 'ORGAN_SYSTEM'),
      rowOf(care, 'Other'),
    ],
    provenance: provenance(),
  };

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: graph });
  const subgraph = async () => {
    const response = await get(
      `/internal/intelligence/ontology/models/conditions/${encodeURIComponent('LD:asthma')}/_subgraph`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ edges: { from: string; to: string; rel: string; weight: number }[] }>();
  };
  const search = async (query: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/internal/intelligence/ontology/concepts/_search',
      headers: graph,
      payload: { query },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ results: { conceptId: string }[] }>().results.map((r) => r.conceptId);
  };

  /** The observations the differential counts for asthma given wheeze and fatigue. */
  const asthmaEvidence = async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/internal/intelligence/clinical_inference/differential_diagnosis',
      headers: graph,
      payload: { observations: [{ observation: 'LD:wheezing' }, { observation: 'LD:fatigue' }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const inference = response.json<{
      inference: { conditionId: string; associatedObservations: { observationId: string }[] }[];
    }>().inference;
    return (
      inference
        .find((entry) => entry.conditionId === 'LD:asthma')
        ?.associatedObservations.map((o) => o.observationId) ?? []
    );
  };

  beforeAll(async () => {
    t = await startTestApp();
    ann = await author(t, 'ann.annotator@example.test', ['annotator']);
    bob = await author(t, 'bob.reviewer@example.test', ['annotator']);
    const medical = await tokenForRoles(t, 'meg.medical@example.test', ['medical']);
    graph = { authorization: `Bearer ${medical.token}` };
    key = await approvedDocument(t, TEXT);
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns a submission with a comment: back to ANNOTATED_DRAFT with the reviewed set', async () => {
    expect(await asthmaEvidence()).not.toContain('LD:fatigue');
    expect((await ann.submit(key, { version: 0, annotations })).statusCode).toBe(200);
    const noComment = await bob.review(key, { version: 1, outcome: 'return', comment: ' ' });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().details).toEqual([expect.objectContaining({ path: 'body.comment' })]);

    const returned = await bob.review(key, {
      version: 1,
      outcome: 'return',
      comment: 'Care is not a finding: remove it.',
      entities: [{ id: care.id, decision: 'reject' }],
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const job = returned.json<AuthoringJob>();
    expect(job).toMatchObject({
      status: 'ANNOTATED_DRAFT',
      jobType: 'annotation draft',
      version: 2,
      annotations: null,
      draftRestorable: true,
      review: {
        outcome: 'returned',
        comment: 'Care is not a finding: remove it.',
        reviewer: { email: bob.email },
        kbRevision: null,
      },
    });
    expect(job.annotationsDraft?.entities.map((e) => e.extract)).toEqual([
      'fatigue',
      'drenching sweats at night',
      'ibuprofen',
      'cardiovascular system',
    ]);
    expect(job.annotationsDraft?.entities.every((e) => e.state === 'annotated')).toBe(true);
    expect(job.annotationsDraft?.relationships.map((r) => r.id)).not.toContain(care.id);
    expect(job.review?.entities).toContainEqual({ id: care.id, decision: 'reject' });
    expect(await audits(t, 'authoring.annotations.reviewed', key)).toBe(1);
  });

  it('approves with a decision on each: the knowledge base gets a new version from the document', async () => {
    // The annotator sends the returned draft back, unchanged but for 'care' (already removed).
    const draft = (await ann.job(key)).annotationsDraft;
    expect(draft).not.toBeNull();
    const resubmitted = await ann.submit(key, {
      version: 2,
      annotations: { ...draft, provenance: provenance() },
    });
    expect(resubmitted.statusCode, resubmitted.body).toBe(200);
    const submitted = resubmitted.json<AuthoringJob>();
    expect(submitted.annotations?.relationships).toHaveLength(3);

    const undecided = await bob.review(key, {
      version: 3,
      outcome: 'approve',
      entities: [{ id: fatigue.id, decision: 'accept' }],
    });
    expect(undecided.statusCode).toBe(400);
    expect(undecided.json().message).toMatch(/needs a decision .* on every entity/);
    expect((await ann.job(key)).status).toBe('ANNOTATED_FOR_REVIEW');
    expect(await search('drenched at night')).not.toContain('LD:night-sweats');

    const approved = await bob.review(key, {
      version: 3,
      outcome: 'approve',
      entities: [fatigue, sweats, ibuprofen, system].map((e) => ({ id: e.id, decision: 'accept' })),
      relationships: [
        { id: fatigue.id, decision: 'change', relationship: rowOf(fatigue, 'Symptom', 'Medium') },
        { id: ibuprofen.id, decision: 'accept' },
        { id: system.id, decision: 'accept' },
      ],
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const job = approved.json<AuthoringJob>();
    expect(job).toMatchObject({
      status: 'ANNOTATION_APPROVED',
      jobType: null,
      version: 4,
      review: { outcome: 'approved', reviewer: { email: bob.email } },
    });
    expect(job.review?.kbRevision?.kbVersion).toMatch(/\+rev\.\d+$/);
    expect(job.annotations?.relationships).toContainEqual(rowOf(fatigue, 'Symptom', 'Medium'));
    expect(job.annotations?.relationships).toContainEqual(rowOf(system, 'Organ system'));
    // No longer in the authoring list; no further review.
    const listed = (await ann.list()).json<{ items: { key: string }[] }>().items;
    expect(listed.map((i) => i.key)).not.toContain(key);
    expect((await bob.review(key, { version: 4, outcome: 'approve' })).statusCode).toBe(409);

    // The knowledge-graph inspector shows the new links around the document's concept at once.
    const edges = (await subgraph()).edges;
    expect(edges).toContainEqual(
      expect.objectContaining({
        from: 'LD:asthma',
        to: 'LD:fatigue',
        rel: 'suggests',
        weight: 0.5,
      }),
    );
    expect(edges).toContainEqual(
      expect.objectContaining({ from: 'LD:asthma', to: 'LD:ibuprofen', rel: 'treated with' }),
    );
    expect(edges).toContainEqual(
      expect.objectContaining({
        from: 'LD:asthma',
        to: 'LD:system/cardiovascular',
        rel: 'bodySystem',
      }),
    );
    // The relationship carries the category as its relation and the document as provenance.
    const relationships = await get(
      '/internal/intelligence/ontology/models/relationships?metadata=true',
    );
    expect(relationships.json().items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          from: 'LD:asthma',
          to: 'LD:fatigue',
          basis: 'document annotation: Symptom',
        }),
      ]),
    );
    const change = await sql<{ change: { upsert: { relationships: { provenance: unknown }[] } } }>`
      select change from kb_revisions where document_key = ${key}
    `.execute(t.database.db);
    expect(change.rows).toHaveLength(1);
    expect(change.rows[0]?.change.upsert.relationships[0]?.provenance).toEqual([
      { source: 'Loopdesk document annotation', reference: `document ${key} (Asthma in adults)` },
    ]);
    // Concept search finds the concept by the document's words; the rejected one changed nothing.
    expect(await search('drenched at night')).toContain('LD:night-sweats');
    expect(await search('drenching sweats at night')).toContain('LD:night-sweats');
    // The revision is listed with the document as its provenance.
    const revisions = await t.app.inject({
      method: 'GET',
      url: '/internal/async-jobs/knowledge/revisions',
      headers: bob.auth,
    });
    expect(revisions.statusCode, revisions.body).toBe(200);
    expect(revisions.json().revisions).toContainEqual(
      expect.objectContaining({ documentKey: key, taskId: null, pipelineId: null }),
    );
    expect(await audits(t, 'authoring.annotations.reviewed', key)).toBe(2);
  });

  it('the demo has two documents waiting in annotation; the pancreatitis one goes all the way', async () => {
    const items = (await ann.list('?jobType=annotation')).json<{
      items: { key: string; displayName: string; jobType: string }[];
    }>().items;
    const names = items.map((i) => i.displayName);
    expect(names).toEqual(
      expect.arrayContaining([
        'Demo guideline: acute pancreatitis',
        'Demo guideline: acne vulgaris',
      ]),
    );
    const demo = items.find((i) => i.displayName === 'Demo guideline: acute pancreatitis');
    const job = await ann.job(demo?.key ?? '');
    expect(job.documentConcept).toMatchObject({ cui: 'C0001339', conceptId: 'LD:pancreatitis' });
    const vomiting = entityAt(job.preparedText, 'vomiting', {
      category: 'Symptom',
      CUI: 'C0042963',
    });
    // The document's own concept gets a row too (the screen gives every entity one): no error.
    const itself = entityAt(job.preparedText, 'acute pancreatitis', {
      category: 'Differential diagnosis',
      CUI: 'LD:pancreatitis',
    });
    expect((await ann.take(job.key)).statusCode).toBe(200);
    const submitted = await ann.submit(job.key, {
      version: 0,
      annotations: {
        entities: [itself, vomiting],
        relationships: [
          rowOf(itself, 'Differential diagnosis'),
          rowOf(vomiting, 'Symptom', 'Medium'),
        ],
        provenance: provenance(),
      },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((await bob.take(job.key)).statusCode).toBe(200);
    const approved = await bob.review(job.key, {
      version: 1,
      outcome: 'approve',
      entities: [itself, vomiting].map((e) => ({ id: e.id, decision: 'accept' })),
      relationships: [itself, vomiting].map((e) => ({ id: e.id, decision: 'accept' })),
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<AuthoringJob>().review?.notLinked).toEqual([
      { id: itself.id, reason: "it is the document's own concept, acute pancreatitis" },
    ]);
    // The pair existed (weight High): the document re-weights it and joins its provenance.
    const response = await get(
      `/internal/intelligence/ontology/models/conditions/${encodeURIComponent('LD:pancreatitis')}/_subgraph`,
    );
    expect(response.json<{ edges: unknown[] }>().edges).toContainEqual(
      expect.objectContaining({ from: 'LD:pancreatitis', to: 'LD:vomiting', weight: 0.5 }),
    );
  });

  it('the differential serves the approved relationship', async () => {
    expect(await asthmaEvidence()).toContain('LD:fatigue');
  });
});
