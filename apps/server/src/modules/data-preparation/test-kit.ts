import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

/** A PDF with a text layer, one page per text (pdf-lib), as a test's document. */
export async function pdfOf(pages: readonly string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    pdf.addPage([400, 400]).drawText(text, { x: 40, y: 300, size: 12, font });
  }
  return pdf.save();
}

/** A PDF whose pages hold no text (as a scanned document has no text layer). */
export async function scannedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([400, 400]).drawRectangle({ x: 40, y: 40, width: 200, height: 200 });
  return pdf.save();
}

/** A multipart/form-data body of these fields, the file last. */
export async function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array; type?: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, value);
  }
  if (file) {
    form.append(
      'file',
      new Blob([Buffer.from(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

/** A client of the data-preparation routes for one signed-in user. */
export async function preparer(t: TestApp, email: string, roles: readonly Role[]) {
  const { token, userId } = await tokenForRoles(t, email, roles);
  const auth = { authorization: `Bearer ${token}` };
  const base = '/internal/data-preparation';
  return {
    userId,
    auth,
    async upload(fileName: string, bytes: Uint8Array, fields: Record<string, string> = {}) {
      const body = await multipart(fields, { name: fileName, bytes });
      return t.app.inject({
        method: 'POST',
        url: `${base}/documents`,
        headers: { ...auth, ...body.headers },
        payload: body.payload,
      });
    },
    get: (id: string) =>
      t.app.inject({ method: 'GET', url: `${base}/metadata/${id}`, headers: auth }),
    next: () => t.app.inject({ method: 'GET', url: `${base}/metadata/_next`, headers: auth }),
    save: (job: unknown) =>
      t.app.inject({
        method: 'POST',
        url: `${base}/metadata`,
        headers: auth,
        payload: job as object,
      }),
    size: (status: string) =>
      t.app.inject({
        method: 'GET',
        url: `${base}/metadata/_size?status=${status}`,
        headers: auth,
      }),
    list: (status: string) =>
      t.app.inject({
        method: 'GET',
        url: `${base}/metadata/summary?status=${status}`,
        headers: auth,
      }),
    text: (id: string) =>
      t.app.inject({ method: 'GET', url: `${base}/document/text/${id}`, headers: auth }),
    pdf: (id: string) =>
      t.app.inject({ method: 'GET', url: `${base}/document/pdf/${id}`, headers: auth }),
    reference: (id: string) =>
      t.app.inject({ method: 'GET', url: `${base}/reference/${id}`, headers: auth }),
    storeText: (name: string, text: string) =>
      t.app.inject({
        method: 'POST',
        url: `${base}/document/${name}`,
        headers: { ...auth, 'content-type': 'text/plain; charset=utf-8' },
        payload: text,
      }),
  };
}

/** The form of a prepared document (spec 2 §2), as the screen fills it. */
export function prepared(job: Record<string, unknown>, text = 'Prepared guideline text.') {
  return {
    ...job,
    displayName: 'Asthma in adults',
    provenance: [
      { source: 'National guideline body', publishedDate: '2024-05-01', pageNumber: '1-2' },
    ],
    classification: [
      { system: 'UMLS', code: 'C0004096', display: 'asthma' },
      { system: 'ICD-10', code: 'J45', display: 'asthma' },
    ],
    containsTables: true,
    preparedText: text,
  };
}
