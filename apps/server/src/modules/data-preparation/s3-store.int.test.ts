import { createServer, type IncomingMessage, type Server } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { pdfOf, preparer } from './test-kit.ts';

const BUCKET = 'guidelines';
const ACCESS_KEY_ID = 'AKIDLOOPDESKTEST';
const ENV = {
  DOCUMENT_STORE: 's3',
  DOCUMENT_S3_BUCKET: BUCKET,
  DOCUMENT_S3_REGION: 'eu-west-1',
  DOCUMENT_S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
  DOCUMENT_S3_SECRET_ACCESS_KEY: 'test-secret-access-key',
};

/** What the fake bucket received: each request's method, path and whether it was signed. */
interface Received {
  method: string;
  path: string;
  signed: boolean;
}

/**
 * A tiny S3-compatible bucket (path-style `/{bucket}/{key}`): PUT stores the bytes, GET returns
 * them or 404. A request must be signed with AWS Signature V4 by the configured access key id, in
 * the `authorization` header or, for a presigned address, in the query (403 otherwise).
 */
function fakeBucket() {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const received: Received[] = [];
  const signedBy = (request: IncomingMessage, url: URL) => {
    const header = request.headers.authorization ?? '';
    if (header) {
      return (
        header.startsWith('AWS4-HMAC-SHA256 ') &&
        header.includes(`Credential=${ACCESS_KEY_ID}/`) &&
        header.includes('Signature=')
      );
    }
    return (
      url.searchParams.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256' &&
      (url.searchParams.get('X-Amz-Credential') ?? '').startsWith(`${ACCESS_KEY_ID}/`) &&
      url.searchParams.has('X-Amz-Signature')
    );
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://bucket');
    const path = decodeURIComponent(url.pathname);
    const signed = signedBy(request, url);
    received.push({ method: request.method ?? '', path, signed });
    if (!signed) {
      response.writeHead(403).end('SignatureDoesNotMatch');
      return;
    }
    if (request.method === 'PUT') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        objects.set(path, {
          bytes: Buffer.concat(chunks),
          contentType: request.headers['content-type'] ?? 'application/octet-stream',
        });
        response.writeHead(200).end();
      });
      return;
    }
    const object = request.method === 'GET' ? objects.get(path) : undefined;
    if (!object) {
      response.writeHead(request.method === 'GET' ? 404 : 405).end('NoSuchKey');
      return;
    }
    response.writeHead(200, { 'content-type': object.contentType }).end(object.bytes);
  });
  return {
    objects,
    received,
    server,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('data preparation with DOCUMENT_STORE=s3: originals in an S3-compatible bucket', () => {
  const bucket = fakeBucket();
  let t: TestApp;

  beforeAll(async () => {
    const endpoint = await bucket.listen();
    t = await startTestApp({ env: { ...ENV, DOCUMENT_S3_ENDPOINT: endpoint } });
  });
  afterAll(async () => {
    await t.close();
    await bucket.close();
  });

  it('stores an uploaded original in the bucket, signed, and reads its pdf and text back', async () => {
    const eve = await preparer(t, 'eve@example.test', ['experimental']);
    const bytes = await pdfOf(['Bronchiolitis page one', 'Oxygen page two']);
    const upload = await eve.upload('bronchiolitis.pdf', bytes, { source: 'Guideline body' });
    expect(upload.statusCode, upload.body).toBe(201);
    const { key } = upload.json<{ key: string }>();

    const stored = bucket.objects.get(`/${BUCKET}/originals/${key}`);
    expect(stored?.contentType).toBe('application/pdf');
    expect(Buffer.compare(stored?.bytes ?? Buffer.alloc(0), Buffer.from(bytes))).toBe(0);
    expect(bucket.received).toContainEqual({
      method: 'PUT',
      path: `/${BUCKET}/originals/${key}`,
      signed: true,
    });
    const { rows } = await sql<{ n: number }>`
      select count(*)::integer as n from document_files
    `.execute(t.database.db);
    expect(rows[0]?.n).toBe(0);

    const pdf = await eve.pdf(key);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(pdf.rawPayload, Buffer.from(bytes))).toBe(0);
    const text = await eve.text(key);
    expect(text.statusCode).toBe(200);
    expect(text.body).toContain('Oxygen page two');

    // The reference is a presigned address of the bucket that a browser may load directly.
    const { url } = (await eve.reference(key)).json<{ url: string }>();
    expect(url.startsWith(`${t.config.env.DOCUMENT_S3_ENDPOINT}/${BUCKET}/originals/`)).toBe(true);
    const direct = await fetch(url);
    expect(direct.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await direct.arrayBuffer()), Buffer.from(bytes))).toBe(0);
    expect(bucket.received.every((r) => r.signed)).toBe(true);
  });

  it('keeps a text original in the bucket and answers 404 for a missing original', async () => {
    const eve = await preparer(t, 'eve2@example.test', ['experimental']);
    const upload = await eve.upload(
      'croup.txt',
      new TextEncoder().encode('Croup: dexamethasone.'),
      {
        source: 'Guideline body',
      },
    );
    expect(upload.statusCode, upload.body).toBe(201);
    const { key } = upload.json<{ key: string }>();
    expect(bucket.objects.get(`/${BUCKET}/originals/${key}`)?.bytes.toString()).toBe(
      'Croup: dexamethasone.',
    );
    expect((await eve.text(key)).body).toBe('Croup: dexamethasone.');

    const pdfUpload = await eve.upload('gone.pdf', await pdfOf(['Gone']), { source: 'x' });
    const gone = pdfUpload.json<{ key: string }>().key;
    bucket.objects.delete(`/${BUCKET}/originals/${gone}`);
    const missing = await eve.pdf(gone);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/missing from the document store/);
  });
});

describe('DOCUMENT_STORE=s3 without its settings', () => {
  it('is refused at start with the missing variable named', async () => {
    const { DOCUMENT_S3_BUCKET: _bucket, ...withoutBucket } = ENV;
    await expect(
      startTestApp({ env: { ...withoutBucket, DOCUMENT_S3_ENDPOINT: 'http://127.0.0.1:9' } }),
    ).rejects.toThrow('DOCUMENT_S3_BUCKET: is required when DOCUMENT_STORE is s3');
  });
});
