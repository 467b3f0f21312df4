import type { Readable } from 'node:stream';
import { extractText, getDocumentProxy } from 'unpdf';
import type { OriginalContentType } from '@loopdesk/contracts/data-preparation.ts';
import { AppError, badRequest } from '../../platform/errors.ts';

/** '50 MiB', '1.5 KiB': a limit as people read it. */
export function readableBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit] ?? 'bytes'}`;
}

/** The 413 of a document larger than the limit, with the limit in its message. */
export const tooLarge = (limit: number) =>
  new AppError(
    413,
    `The document is larger than the limit of ${readableBytes(limit)} (${limit} bytes): send a smaller file.`,
  );

/**
 * Reads a stream to its end, refusing (413) as soon as it passes `limit` bytes: nothing larger
 * than the limit is ever held in memory.
 */
export async function readLimited(stream: Readable, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.byteLength;
    if (size > limit) {
      stream.destroy();
      throw tooLarge(limit);
    }
    chunks.push(buffer);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

const PDF_MAGIC = '%PDF-';

/**
 * Strictly decoded UTF-8 text, or null when the bytes are not text: a byte sequence that is not
 * UTF-8, or control characters other than tab, newline, carriage return and form feed (a binary
 * file renamed .txt).
 */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what makes it binary
  return /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text) ? null : text;
}

/** What an original was found to be, and the text read from it page by page. */
export interface ReadOriginal {
  readonly contentType: OriginalContentType;
  readonly pages: readonly string[];
  readonly textLayer: boolean;
}

const unsupported = (fileName: string) =>
  new AppError(
    415,
    `'${fileName}' is neither a PDF nor UTF-8 text: send the guideline as a PDF or a plain-text file.`,
  );

/**
 * Finds what an original is by its bytes, whatever its name says (a PDF starts with `%PDF-`;
 * text is strict UTF-8), and reads its text: a PDF page by page with unpdf. A PDF cut short or
 * one that only looks like a PDF is refused (400) with what is wrong.
 */
export async function readOriginal(fileName: string, bytes: Uint8Array): Promise<ReadOriginal> {
  if (bytes.byteLength === 0) {
    throw badRequest(`'${fileName}' is empty: send the document's content.`);
  }
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes(PDF_MAGIC)) {
    return readPdf(fileName, bytes);
  }
  const text = decodeText(bytes);
  if (text === null) {
    throw unsupported(fileName);
  }
  const body = text.replace(/^\uFEFF/, '');
  return { contentType: 'text/plain', pages: [body], textLayer: body.trim().length > 0 };
}

async function readPdf(fileName: string, bytes: Uint8Array): Promise<ReadOriginal> {
  // A complete PDF ends with %%EOF (ISO 32000 §7.5.5); an upload cut short does not.
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.byteLength - 1024))).toString('latin1');
  if (!tail.includes('%%EOF')) {
    throw badRequest(
      `'${fileName}' is a truncated PDF: it does not end with %%EOF. Send the whole file again.`,
    );
  }
  let pages: string[];
  try {
    // A copy: pdf.js takes ownership of the buffer it is given.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (error) {
    throw badRequest(
      `'${fileName}' is not a readable PDF (${error instanceof Error ? error.message : 'unknown error'}): send a valid PDF.`,
    );
  }
  return {
    contentType: 'application/pdf',
    pages,
    textLayer: pages.some((page) => page.trim().length > 0),
  };
}

/** The extracted text of a document: its pages, each after a marker line naming the page. */
export function joinPages(original: ReadOriginal): string {
  if (original.contentType === 'text/plain') {
    return original.pages[0] ?? '';
  }
  if (!original.textLayer) {
    return '';
  }
  return original.pages
    .map((page, index) => `--- Page ${index + 1} ---\n${page.trim()}`)
    .join('\n\n');
}
