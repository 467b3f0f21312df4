import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import {
  approvedDocument,
  audits,
  author,
  entityAt,
  preparer,
  provenance,
  type Author,
} from './test-kit.ts';

const TEXT =
  'Adults with asthma may report fatigue and night sweats. Give ibuprofen with care. The cardiovascular system is spared.';

describe('authoring: holding, draft, submit, four eyes and bad input (spec 2 §4, §5; issue 13)', () => {
  let t: TestApp;
  let ann: Author;
  let bob: Author;
  let cat: Author;
  let eve: Author;

  const fatigue = (fields: Record<string, unknown> = {}) =>
    entityAt(TEXT, 'fatigue', { category: 'Symptom', CUI: 'C0015672', ...fields });
  const set = (entities: unknown[], relationships: unknown[] = [], system = 'decoded-portal') => ({
    entities,
    relationships,
    provenance: provenance(system),
  });

  /** The stored row of a document: what must not change after a refusal. */
  const stored = async (key: string) => {
    const { rows } = await sql<{ status: string; job: unknown; annotation_version: number }>`
      select status, job, annotation_version from data_preparation_documents where key = ${key}
    `.execute(t.database.db);
    return rows[0];
  };

  beforeAll(async () => {
    t = await startTestApp();
    ann = await author(t, 'ann.annotator@example.test', ['annotator']);
    bob = await author(t, 'bob.annotator@example.test', ['annotator']);
    cat = await author(t, 'cat.annotator@example.test', ['annotator']);
    eve = await author(t, 'eve.preparer@example.test', ['experimental']);
  });
  beforeEach(async () => {
    await sql`delete from data_preparation_documents`.execute(t.database.db);
    await sql`delete from document_files`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the documents with the job type derived from the status, for annotators only', async () => {
    const key = await approvedDocument(t, TEXT);
    const list = await ann.list();
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toEqual([
      expect.objectContaining({
        key,
        displayName: 'Asthma in adults',
        source: 'National guideline body',
        status: 'DOCUMENT_APPROVED',
        jobType: 'annotation',
        holder: null,
      }),
    ]);
    expect((await ann.list('?jobType=annotation%20review')).json().items).toEqual([]);
    expect((await eve.list()).statusCode).toBe(403);
    expect((await ann.list('?jobType=nonsense')).statusCode).toBe(400);

    const job = await ann.job(key);
    expect(job).toMatchObject({
      status: 'DOCUMENT_APPROVED',
      jobType: 'annotation',
      preparedText: TEXT,
      documentConcept: { cui: 'C0004096', conceptId: 'LD:asthma', class: 'condition' },
      annotations: null,
      annotationsDraft: null,
      draftRestorable: false,
      version: 0,
    });
    expect(await audits(t, 'authoring.job.read', key)).toBe(1);
    expect((await ann.get('no-such-job')).statusCode).toBe(404);
  });

  it('holds a job for one annotator at a time: another gets 409 naming the holder', async () => {
    const key = await approvedDocument(t, TEXT);
    const taken = await ann.take(key);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().holder).toMatchObject({
      userId: ann.userId,
      email: ann.email,
      purpose: 'annotation',
    });
    // Taking again renews the caller's own hold.
    expect((await ann.take(key)).statusCode).toBe(200);

    const refused = await bob.take(key);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/ann\.annotator@example\.test is annotating/);
    expect(refused.json().holder).toMatchObject({ email: ann.email });
    const before = await stored(key);
    const save = await bob.draft(key, { version: 0, annotations: set([fatigue()]) });
    expect(save.statusCode).toBe(409);
    expect(save.json().current).toMatchObject({ key, version: 0 });
    expect(await stored(key)).toEqual(before);
    expect(await audits(t, 'authoring.job.taken', key, 'failure')).toBe(1);
    expect(await audits(t, 'authoring.draft.saved', key, 'failure')).toBe(1);

    // Released, it is free; a lease that ran out frees it too.
    expect((await bob.release(key)).json().holder).not.toBeNull(); // not bob's to release
    expect((await ann.release(key)).json().holder).toBeNull();
    expect((await bob.take(key)).statusCode).toBe(200);
    await sql`update data_preparation_documents set lease_expires_at = now() - interval '1 second'
      where key = ${key}`.execute(t.database.db);
    expect((await ann.take(key)).statusCode).toBe(200);
  });

  it('saves a draft (ANNOTATED_DRAFT), then submits (ANNOTATED_FOR_REVIEW, draft removed)', async () => {
    const key = await approvedDocument(t, TEXT);
    await ann.take(key);
    const manual = entityAt(TEXT, 'night sweats', { state: 'manual' });
    const drafted = await ann.draft(key, { version: 0, annotations: set([fatigue(), manual]) });
    expect(drafted.statusCode, drafted.body).toBe(200);
    const draft = drafted.json<AuthoringJob>();
    expect(draft).toMatchObject({
      status: 'ANNOTATED_DRAFT',
      jobType: 'annotation draft',
      version: 1,
      draftRestorable: true,
      holder: null, // the job is finished: back to the list
      annotations: null,
    });
    expect(draft.annotationsDraft?.entities.map((e) => e.state)).toEqual(['annotated', 'manual']);
    expect((await ann.list()).json().items[0].jobType).toBe('annotation draft');

    // A draft written by another system is stored and returned, but not to be restored.
    const foreign = await ann.draft(key, {
      version: 1,
      annotations: set([fatigue()], [], 'another-tool'),
    });
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json()).toMatchObject({
      version: 2,
      draftRestorable: false,
      annotationsDraft: { provenance: { system: 'another-tool' } },
    });

    // Submitting an incomplete set is refused with the spec's message, nothing saved.
    const before = await stored(key);
    const incomplete = await ann.submit(key, { version: 2, annotations: set([fatigue(), manual]) });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().message).toBe(
      'Please complete or remove incomplete annotations before submitting.',
    );
    expect(incomplete.json().details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'body.annotations.entities.1.category' }),
        expect.objectContaining({ path: 'body.annotations.entities.1.CUI' }),
        expect.objectContaining({ path: 'body.annotations.entities.1.state' }),
      ]),
    );
    const noCui = await ann.submit(key, {
      version: 2,
      annotations: set([fatigue({ CUI: null, state: undefined })]),
    });
    expect(noCui.statusCode).toBe(400);
    expect(noCui.json().message).toBe(
      'Please complete or remove incomplete annotations before submitting.',
    );
    expect(await stored(key)).toEqual(before);

    const row = { id: '', entity: 'fatigue', category: 'Symptom', weight: 'High' };
    const entity = fatigue();
    const submitted = await ann.submit(key, {
      version: 2,
      annotations: set([entity], [{ ...row, id: entity.id }]),
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const job = submitted.json<AuthoringJob>();
    expect(job).toMatchObject({
      status: 'ANNOTATED_FOR_REVIEW',
      jobType: 'annotation review',
      version: 3,
      annotationsDraft: null,
      draftRestorable: false,
      annotatedBy: { userId: ann.userId, email: ann.email },
    });
    // Only the data part is stored (spec 2 §3), with the concept's name filled in.
    expect(job.annotations?.entities).toEqual([
      {
        id: entity.id,
        start: entity.start,
        end: entity.end,
        extract: 'fatigue',
        category: 'Symptom',
        CUI: 'C0015672',
        conceptName: 'fatigue',
        TUI: [],
      },
    ]);
    expect(job.annotations?.relationships).toEqual([{ ...row, id: entity.id }]);

    // Submitted: no more drafts or submissions.
    const late = await ann.draft(key, { version: 3, annotations: set([fatigue()]) });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/status ANNOTATED_FOR_REVIEW/);
    expect(await audits(t, 'authoring.draft.saved', key)).toBe(2);
    expect(await audits(t, 'authoring.annotations.submitted', key)).toBe(1);
    expect(await audits(t, 'authoring.annotations.submitted', key, 'failure')).toBe(2);
  });

  it('four eyes: whoever annotated a document cannot review it', async () => {
    const key = await approvedDocument(t, TEXT);
    expect((await cat.draft(key, { version: 0, annotations: set([fatigue()]) })).statusCode).toBe(
      200,
    );
    expect((await ann.submit(key, { version: 1, annotations: set([fatigue()]) })).statusCode).toBe(
      200,
    );
    for (const annotator of [ann, cat]) {
      const take = await annotator.take(key);
      expect(take.statusCode).toBe(403);
      expect(take.json().message).toMatch(/You annotated 'Asthma in adults'.*four eyes/);
      const review = await annotator.review(key, { version: 2, outcome: 'approve' });
      expect(review.statusCode).toBe(403);
    }
    expect(await audits(t, 'authoring.annotations.reviewed', key, 'denied')).toBe(2);
    const taken = await bob.take(key);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().holder).toMatchObject({ purpose: 'review', email: bob.email });
    // Reviewing needs jobs:annotation:review (the route's privilege).
    expect((await eve.review(key, { version: 2, outcome: 'approve' })).statusCode).toBe(403);
  });

  it('concurrent saves of the same version: exactly one wins, the other gets 409 and the current job', async () => {
    const key = await approvedDocument(t, TEXT);
    const mine = set([fatigue()]);
    const theirs = set([
      entityAt(TEXT, 'ibuprofen', { category: 'Treatment', CUI: 'LD:ibuprofen' }),
    ]);
    const answers = await Promise.all([
      ann.draft(key, { version: 0, annotations: mine }),
      cat.draft(key, { version: 0, annotations: theirs }),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const won = answers.find((a) => a.statusCode === 200);
    const lost = answers.find((a) => a.statusCode === 409);
    expect(lost?.json().message).toMatch(/was saved by someone else since you opened it/);
    // Nothing lost: the winner's draft is stored, and the refused caller gets it to compare.
    const current = lost?.json<{ current: AuthoringJob }>().current;
    expect(current?.version).toBe(1);
    expect(current?.annotationsDraft).toEqual(won?.json<AuthoringJob>().annotationsDraft);
    expect((await ann.job(key)).annotationsDraft).toEqual(current?.annotationsDraft);

    // The same user twice (a double click) is one save too.
    const twice = await Promise.all([
      ann.submit(key, { version: 1, annotations: mine }),
      ann.submit(key, { version: 1, annotations: mine }),
    ]);
    expect(twice.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await ann.job(key)).version).toBe(2);
  });

  it('refuses bad input with 400 naming the field, and changes nothing', async () => {
    const key = await approvedDocument(t, TEXT);
    const before = await stored(key);
    const cases: { body: unknown; path: string; message?: RegExp }[] = [
      {
        body: set([{ ...fatigue(), start: TEXT.length - 2, end: TEXT.length + 5, extract: 'd.x' }]),
        path: 'body.annotations.entities.0.end',
        message: /past the end of the prepared text/,
      },
      {
        body: set([fatigue(), entityAt(TEXT, 'fatigue and', { category: 'Symptom' })]),
        path: 'body.annotations.entities.1.start',
        message: /Unable to annotate entity that already exists/,
      },
      {
        body: set([{ ...fatigue(), extract: 'fatigued' }]),
        path: 'body.annotations.entities.0.extract',
        message: /must be the text at/,
      },
      {
        body: set([fatigue({ category: 'Mood' })]),
        path: 'body.annotations.entities.0.category',
      },
      {
        body: set([fatigue({ CUI: 'C9999999' })]),
        path: 'body.annotations.entities.0.CUI',
        message: /not a concept of the knowledge base/,
      },
      {
        body: set(
          [fatigue()],
          [{ id: 'nobody', entity: 'fatigue', category: 'Symptom', weight: '' }],
        ),
        path: 'body.annotations.relationships.0.id',
      },
      {
        body: set([{ ...fatigue(), end: 5, start: 5, extract: 'x' }]),
        path: 'body.annotations.entities.0.end',
      },
    ];
    for (const { body, path, message } of cases) {
      for (const send of [ann.draft, ann.submit]) {
        const response = await send(key, { version: 0, annotations: body });
        expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
        const answer = response.json<{ message: string; details: { path: string }[] }>();
        expect(answer.details.map((d) => d.path)).toContain(path);
        if (message) {
          expect(answer.message).toMatch(message);
        }
      }
    }
    // A stale or missing version.
    expect((await ann.draft(key, { version: 7, annotations: set([fatigue()]) })).statusCode).toBe(
      409,
    );
    expect((await ann.draft(key, { annotations: set([fatigue()]) })).statusCode).toBe(400);
    expect(await stored(key)).toEqual(before);
    expect(await audits(t, 'authoring.draft.saved', key, 'failure')).toBeGreaterThanOrEqual(6);

    // Unknown job 404; a document not yet approved for annotation 409.
    expect((await ann.draft('nothing', { version: 0, annotations: set([]) })).statusCode).toBe(404);
    const pat = await preparer(t, 'pat.preparer@example.test', ['experimental']);
    const uploaded = await pat.upload('x.txt', TEXT, {
      name: 'Registered',
      source: 'x',
    });
    const registered = uploaded.json<{ key: string }>().key;
    const early = await ann.submit(registered, { version: 0, annotations: set([]) });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/status REGISTERED/);
  });

  it('annotations are no longer saved through the data preparation call', async () => {
    const key = await approvedDocument(t, TEXT);
    const rita = await preparer(t, 'rita.reviewer@example.test', ['experimental']);
    const dataPrep = await preparer(t, 'ann.annotator@example.test', ['annotator']);
    const job = (await rita.get(key)).json<Record<string, unknown>>();
    const draft = { ...job, status: 'ANNOTATED_DRAFT', annotationsDraft: set([fatigue()]) };
    // An annotator no longer holds the data preparation routes at all (least privilege)…
    const refused = await dataPrep.save(draft);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/jobs:preparation:perform/);
    // …and a preparer is sent to the authoring routes.
    const response = await rita.save(draft);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/POST \/internal\/authoring\/jobs\/\{key\}\/draft/);
    expect((await ann.job(key)).status).toBe('DOCUMENT_APPROVED');
  });
});
