import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { pdfOf, preparer, prepared, scannedPdf } from './test-kit.ts';

type Client = Awaited<ReturnType<typeof preparer>>;

describe('data preparation: registration, preparation and four-eyes review (spec 2 §4, §5, §7)', () => {
  let t: TestApp;
  let eve: Client;
  let lee: Client;
  let ann: Client;

  const auditCount = async (action: string, resource?: string, outcome = 'success') => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::integer as n from audit_events
      where action = ${action} and outcome = ${outcome}
        and (${resource ?? null}::text is null or resource_id = ${resource ?? null})
    `.execute(t.database.db);
    return rows[0]?.n ?? 0;
  };
  const register = async (client: Client = eve) => {
    const response = await client.upload(
      'asthma.pdf',
      await pdfOf(['Asthma page one', 'Wheeze page two']),
      {
        source: 'National guideline body',
      },
    );
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ key: string; code: string }>();
  };

  beforeAll(async () => {
    t = await startTestApp();
    eve = await preparer(t, 'eve@example.test', ['experimental']);
    lee = await preparer(t, 'lee@example.test', ['experimental']);
    ann = await preparer(t, 'ann@example.test', ['annotator']);
  });
  beforeEach(async () => {
    await sql`delete from data_preparation_documents`.execute(t.database.db);
    await sql`delete from document_files`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  it('extracts a PDF made with pdf-lib page by page, so Extracted Text starts filled', async () => {
    const { key } = await register();
    const job = (await eve.get(key)).json();
    expect(job).toMatchObject({
      key,
      status: 'REGISTERED',
      displayName: 'asthma',
      source: 'National guideline body',
      extraction: { contentType: 'application/pdf', pages: 2, textLayer: true },
    });
    expect(job.preparedText).toBe(
      '--- Page 1 ---\nAsthma page one\n\n--- Page 2 ---\nWheeze page two',
    );
    const pdf = await eve.pdf(key);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await eve.text(key)).body).toContain('Wheeze page two');
    expect((await eve.reference(key)).json()).toEqual({
      url: `/internal/data-preparation/document/pdf/${key}`,
    });
    expect(await auditCount('data-preparation.document.registered')).toBeGreaterThan(0);
    expect(await auditCount('data-preparation.job.read')).toBeGreaterThan(0);
  });

  it('says so when a PDF has no text layer', async () => {
    const response = await eve.upload('scan.pdf', await scannedPdf());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      extraction: { textLayer: false, pages: 1 },
      message: expect.stringMatching(/no text layer/),
    });
    expect((await eve.get(response.json().key)).json().preparedText).toBe('');
  });

  it('takes UTF-8 text whatever its name, and refuses a binary file named .txt, a fake and a truncated PDF', async () => {
    const text = await eve.upload(
      'notes.bin',
      new TextEncoder().encode('Guideline: fever in children – ünïcode'),
    );
    expect(text.statusCode).toBe(201);
    expect(text.json().extraction.contentType).toBe('text/plain');

    const binary = await eve.upload(
      'guideline.txt',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff]),
    );
    expect(binary.statusCode).toBe(415);
    expect(binary.json().message).toMatch(/neither a PDF nor UTF-8 text/);

    const fake = await eve.upload(
      'fake.pdf',
      new TextEncoder().encode('%PDF-1.7\nnot really a pdf\n%%EOF'),
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toMatch(/not a readable PDF/);

    const whole = await pdfOf(['cut short']);
    const truncated = await eve.upload('cut.pdf', whole.subarray(0, Math.floor(whole.length / 2)));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toMatch(/truncated PDF/);

    expect((await eve.size('REGISTERED')).json()).toEqual({ size: 1 });
    expect(
      await auditCount('data-preparation.document.registered', undefined, 'failure'),
    ).toBeGreaterThanOrEqual(3);
  });

  it('moves REGISTERED → PREPARED_FOR_REVIEW → DOCUMENT_APPROVED with four eyes, lists by stage', async () => {
    const { key, code } = await register();
    expect((await eve.list('REGISTERED')).json().items).toEqual([
      expect.objectContaining({ key, code, status: 'REGISTERED' }),
    ]);
    const job = (await eve.get(key)).json();

    // Eve prepares it: the prepared text, then the job.
    const file = await eve.storeText(`${code}.prepared.txt`, 'Prepared by Eve.');
    expect(file.statusCode, file.body).toBe(201);
    const submitted = await eve.save({ ...prepared(job), status: 'PREPARED_FOR_REVIEW' });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const saved: { references: { reference: string }[] } = submitted.json();
    const submittedJob: Record<string, unknown> = submitted.json();
    expect(saved.references.map((r) => r.reference)).toEqual([
      'asthma.pdf',
      `${code}.prepared.txt`,
    ]);
    expect((await eve.list('PREPARED_FOR_REVIEW')).json().items).toHaveLength(1);

    // Eve may not approve what she prepared, nor store its approved text.
    const own = await eve.save({ ...submittedJob, status: 'DOCUMENT_APPROVED' });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toMatch(/You prepared this document.*four eyes/);
    expect((await eve.get(key)).json().status).toBe('PREPARED_FOR_REVIEW');

    // An annotator cannot approve: the data preparation routes need jobs:preparation:perform.
    const annotator = await ann.save({ ...submittedJob, status: 'DOCUMENT_APPROVED' });
    expect(annotator.statusCode).toBe(403);
    expect(annotator.json().message).toMatch(/jobs:preparation:perform/);

    // Lee approves it, and the approved text is downloadable.
    expect(
      (await lee.storeText(`${code}.prepared.approved.txt`, 'Approved by Lee.')).statusCode,
    ).toBe(201);
    const approved = await lee.save({ ...submittedJob, status: 'DOCUMENT_APPROVED' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('DOCUMENT_APPROVED');
    expect((await lee.list('DOCUMENT_APPROVED,ANNOTATED_DRAFT')).json().items).toHaveLength(1);
    const reference = (await lee.reference(`${code}.prepared.approved.txt`)).json();
    expect(reference.url).toBe(
      `/internal/data-preparation/document/text/${code}.prepared.approved.txt`,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: reference.url, headers: lee.auth })).body,
    ).toBe('Approved by Lee.');
    // Approved is not a status it moves back from here.
    const approvedJob: Record<string, unknown> = approved.json();
    const again = await lee.save({ ...approvedJob, status: 'PREPARED_FOR_REVIEW' });
    expect(again.statusCode).toBe(409);
    expect(await auditCount('data-preparation.job.saved')).toBeGreaterThanOrEqual(2);
  });

  it('rejects with a comment (from registered and from review), never without one', async () => {
    const { key } = await register();
    const job = (await eve.get(key)).json();
    const noComment = await eve.save({ ...job, status: 'REJECTED', rejectionComment: '  ' });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().details).toEqual([
      expect.objectContaining({ path: 'body.rejectionComment' }),
    ]);
    expect((await eve.get(key)).json().status).toBe('REGISTERED');
    const rejected = await eve.save({
      ...job,
      status: 'REJECTED',
      rejectionComment: 'Not a guideline.',
    });
    expect(rejected.json()).toMatchObject({
      status: 'REJECTED',
      rejectionComment: 'Not a guideline.',
    });

    const second = await register();
    const submitted = (
      await eve.save({
        ...prepared((await eve.get(second.key)).json()),
        status: 'PREPARED_FOR_REVIEW',
      })
    ).json();
    expect(
      (await eve.save({ ...submitted, status: 'REJECTED', rejectionComment: 'x' })).statusCode,
    ).toBe(403);
    const byLee = await lee.save({
      ...submitted,
      status: 'REJECTED',
      rejectionComment: 'Wrong CUI.',
    });
    expect(byLee.json()).toMatchObject({ status: 'REJECTED', rejectionComment: 'Wrong CUI.' });
  });

  it('refuses a submit without name, source or CUI, an unknown id and a wrong code, changing nothing', async () => {
    const { key } = await register();
    const job = (await eve.get(key)).json();
    const missing = await eve.save({
      ...job,
      displayName: '',
      provenance: [],
      status: 'PREPARED_FOR_REVIEW',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ details: { path: string }[] }>().details.map((d) => d.path)).toEqual([
      'body.displayName',
      'body.provenance',
      'body.classification',
    ]);
    expect(
      (await eve.save({ ...prepared(job), key: 'nope', status: 'PREPARED_FOR_REVIEW' })).statusCode,
    ).toBe(404);
    expect(
      (await eve.save({ ...prepared(job), code: 'other', status: 'PREPARED_FOR_REVIEW' }))
        .statusCode,
    ).toBe(400);
    expect((await eve.get('nope')).statusCode).toBe(404);
    expect((await eve.text('nope')).statusCode).toBe(404);
    expect((await eve.storeText('nope.prepared.txt', 'x')).statusCode).toBe(404);
    expect((await eve.storeText('whatever.txt', 'x')).statusCode).toBe(400);
    const after = (await eve.get(key)).json();
    expect(after).toMatchObject({ status: 'REGISTERED', displayName: 'asthma' });
    expect(await auditCount('data-preparation.job.saved', key)).toBe(0);
    expect(await auditCount('data-preparation.job.saved', key, 'failure')).toBeGreaterThan(0);
  });

  it('leases the oldest registered job to one caller: another gets the next, the holder gets it again', async () => {
    const first = await register();
    const second = await register();
    expect((await eve.next()).json().key).toBe(first.key);
    expect((await eve.next()).json().key).toBe(first.key);
    expect((await lee.next()).json().key).toBe(second.key);
    // Lee cannot submit the job Eve holds.
    const held = await lee.save({
      ...prepared((await lee.get(first.key)).json()),
      status: 'PREPARED_FOR_REVIEW',
    });
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toMatch(/Someone else is preparing/);
    // Once Eve submits it, her next job is a free one.
    await eve.save({
      ...prepared((await eve.get(first.key)).json()),
      status: 'PREPARED_FOR_REVIEW',
    });
    expect((await eve.next()).json()).toBeNull();
    expect((await eve.size('REGISTERED')).json()).toEqual({ size: 1 });
  });

  it('20 concurrent callers of Get next job never get the same job', async () => {
    for (let i = 0; i < 5; i++) {
      await register();
    }
    const callers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => preparer(t, `p${i}@example.test`, ['experimental'])),
    );
    const answers = await Promise.all(callers.map((c) => c.next()));
    const keys = answers.map((a) => a.json<{ key: string } | null>()?.key).filter(Boolean);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
  });

  it('answers the concept query from 3 characters with name, conceptId, relevance, types, sources', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/internal/data-preparation/query/umls_view?q=asth',
      headers: eve.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0]).toMatchObject({
      name: expect.any(String),
      conceptId: expect.any(String),
      relevance: expect.any(Number),
      types: expect.any(Array),
      sources: expect.arrayContaining([expect.objectContaining({ system: 'UMLS' })]),
    });
    const short = await t.app.inject({
      method: 'GET',
      url: '/internal/data-preparation/query/umls_view?q=as',
      headers: eve.auth,
    });
    expect(short.statusCode).toBe(400);
  });

  it('refuses the upload to a user without jobs:preparation:perform', async () => {
    const response = await ann.upload('a.pdf', await pdfOf(['x']));
    expect(response.statusCode).toBe(403);
  });
});
