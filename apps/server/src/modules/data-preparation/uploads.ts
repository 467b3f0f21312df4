import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import type { z } from 'zod';
import multipart from '@fastify/multipart';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { AppError, badRequest } from '../../platform/errors.ts';
import { readLimited, tooLarge, decodeText } from './originals.ts';

/** The routes that take multipart/form-data (every other route keeps answering 415 to it). */
export const UPLOAD_URLS = new Set(['/internal/data-preparation/documents', '/api/v1/documents']);
/** The route that takes text/plain: the prepared text of `POST …/document/{name}` (spec 2 §7). */
export const TEXT_URL = '/internal/data-preparation/document/:name';

/** Fastify's own 415, which the one error handler words for JSON routes. */
const unsupportedMediaType = () =>
  Object.assign(new Error('Unsupported Media Type'), {
    code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    statusCode: 415,
  });

/**
 * Teaches the app the two kinds of body documents come in, for their routes only: multipart
 * uploads (streamed, @fastify/multipart) and a prepared text as text/plain (read up to the limit,
 * strict UTF-8).
 */
export async function registerBodyParsers(app: FastifyInstance, maxBytes: number): Promise<void> {
  await app.register(multipart, {
    // One byte over the limit reaches readLimited, which answers 413 with the limit in words.
    limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 10_000, parts: 12 },
  });
  app.addHook('preValidation', (request, _reply, done) => {
    done(
      request.isMultipart() && !UPLOAD_URLS.has(request.routeOptions.url ?? '')
        ? unsupportedMediaType()
        : undefined,
    );
  });
  app.addContentTypeParser('text/plain', (request, payload, done) => {
    if (request.routeOptions.url !== TEXT_URL) {
      done(unsupportedMediaType(), undefined);
      return;
    }
    readLimited(payload, maxBytes).then(
      (bytes) => {
        const text = decodeText(bytes);
        done(
          text === null
            ? new AppError(415, 'The prepared text must be UTF-8 text (text/plain).')
            : null,
          text ?? undefined,
        );
      },
      (error: unknown) => done(error as Error, undefined),
    );
  });
}

/**
 * Validation of a multipart route: its body is read in the handler (streamed), so the body
 * schema only documents the form; params, query and headers are validated as everywhere.
 */
export const multipartValidator = (route: FastifyRouteSchemaDef<unknown>) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as FastifyRouteSchemaDef<z.ZodType>);

/** An uploaded document: its file name and bytes, and the form's other fields. */
export interface Upload {
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly fields: Readonly<Record<string, string>>;
}

/** Reads the one file of a multipart upload, refusing past `maxBytes` (413) as it streams in. */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'Send the document as multipart/form-data: the fields name and source, then the file.',
    );
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes + 1_048_576) {
    throw tooLarge(maxBytes);
  }
  const fields: Record<string, string> = {};
  let file: { fileName: string; bytes: Uint8Array } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (file) {
          throw badRequest('Send one document per upload.');
        }
        file = {
          fileName: part.filename || 'document',
          bytes: await readLimited(part.file, maxBytes),
        };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw tooLarge(maxBytes);
    }
    if (error instanceof AppError) {
      throw error;
    }
    throw badRequest(`The upload could not be read: ${(error as Error).message}.`);
  }
  if (!file) {
    throw badRequest('The upload holds no file: add the document as the part named file.', [
      { path: 'body.file', message: 'is required' },
    ]);
  }
  return { ...file, fields };
}
