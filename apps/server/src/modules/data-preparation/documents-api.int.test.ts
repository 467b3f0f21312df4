import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { DEMO_SOURCE } from './demo.ts';
import { multipart, pdfOf, preparer } from './test-kit.ts';

const LIMIT = 4096;

describe('documents in: POST /api/v1/documents, the upload limit, body types, the demo documents', () => {
  let t: TestApp;
  let key: string;

  const post = async (
    fields: Record<string, string>,
    file?: { name: string; bytes: Uint8Array },
    apiKey = key,
  ) => {
    const body = await multipart(fields, file);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      headers: { authorization: `Bearer ${apiKey}`, ...body.headers },
      payload: body.payload,
    });
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { DOCUMENT_MAX_BYTES: String(LIMIT) } });
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'guideline-feed' },
    });
    key = created.json().key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers a PDF with its name and source as a REGISTERED job', async () => {
    const response = await post(
      { name: 'Sepsis in adults', source: 'Guideline body' },
      { name: 'sepsis.pdf', bytes: await pdfOf(['Sepsis']) },
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      displayName: 'Sepsis in adults',
      source: 'Guideline body',
      status: 'REGISTERED',
      code: expect.stringMatching(/^sepsis-in-adults-[0-9a-f]{8}$/),
      extraction: { contentType: 'application/pdf', pages: 1, textLayer: true },
    });
    const eve = await preparer(t, 'eve@example.test', ['experimental']);
    expect((await eve.get(response.json().key)).json().preparedText).toContain('Sepsis');
  });

  it('needs the name and the source, a file, and an API key', async () => {
    const noSource = await post(
      { name: 'x' },
      { name: 'a.txt', bytes: new TextEncoder().encode('x') },
    );
    expect(noSource.statusCode).toBe(400);
    expect(noSource.json().details).toEqual([expect.objectContaining({ path: 'body.source' })]);
    const noFile = await post({ name: 'x', source: 'y' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toMatch(/no file/);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/documents',
      headers: { authorization: `Bearer ${key}` },
      payload: { name: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toMatch(/multipart\/form-data/);
    expect(
      (await post({ name: 'x', source: 'y' }, undefined, 'ldk_00000000_nope')).statusCode,
    ).toBe(401);
  });

  it('refuses a file over DOCUMENT_MAX_BYTES with 413 and the limit in the message', async () => {
    const big = new TextEncoder().encode('a'.repeat(LIMIT + 1));
    const response = await post({ name: 'big', source: 'y' }, { name: 'big.txt', bytes: big });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(
      'The document is larger than the limit of 4 KiB (4096 bytes): send a smaller file.',
    );
    const eve = await preparer(t, 'eve2@example.test', ['experimental']);
    const upload = await eve.upload('big.txt', big);
    expect(upload.statusCode).toBe(413);
    const exact = await eve.upload('exact.txt', new TextEncoder().encode('b'.repeat(LIMIT)));
    expect(exact.statusCode).toBe(201);
  });

  it('keeps 415 for text/plain and multipart bodies sent to JSON routes', async () => {
    const eve = await preparer(t, 'eve3@example.test', ['experimental']);
    const text = await t.app.inject({
      method: 'POST',
      url: '/internal/data-preparation/metadata',
      headers: { ...eve.auth, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    const form = await multipart({ status: 'REGISTERED' });
    const multi = await t.app.inject({
      method: 'POST',
      url: '/internal/data-preparation/metadata',
      headers: { ...eve.auth, ...form.headers },
      payload: form.payload,
    });
    expect(multi.statusCode).toBe(415);
  });

  it('documents POST /api/v1/documents in the OpenAPI document as multipart/form-data', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const operation = doc.paths['/api/v1/documents'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '413', '415']),
    );
  });

  it('seeds demo guideline documents (marked as demo) so that every stage has work', async () => {
    const eve = await preparer(t, 'eve4@example.test', ['experimental']);
    const stages = ['REGISTERED', 'PREPARED_FOR_REVIEW', 'DOCUMENT_APPROVED,ANNOTATED_DRAFT'];
    for (const status of stages) {
      const items = (await eve.list(status)).json().items as { demo: boolean; source: string }[];
      expect(items.filter((i) => i.demo).length, status).toBeGreaterThan(0);
      expect(items.filter((i) => i.demo).every((i) => i.source === DEMO_SOURCE)).toBe(true);
    }
    const demo = (
      (await eve.list('REGISTERED')).json().items as { key: string; demo: boolean }[]
    ).find((i) => i.demo);
    expect((await eve.text(demo?.key ?? '')).body).toMatch(/DEMO DOCUMENT/);
  });
});
