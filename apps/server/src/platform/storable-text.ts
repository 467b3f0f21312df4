import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from './errors.ts';

/**
 * Characters PostgreSQL cannot store in `text` or `jsonb`: NUL (U+0000), and UTF-16 surrogates
 * without their pair (jsonb refuses their escapes; text would silently turn them into U+FFFD).
 */
// No `u` flag: with it a lone surrogate cannot be matched on its own.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper than this, a value is not walked further (bodies are size-limited anyway). */
const MAX_DEPTH = 64;

/** A place in a request or frame holding a character that cannot be stored. */
export interface UnstorableText {
  readonly path: string;
  readonly message: string;
}

function describe(text: string): string {
  const found = UNSTORABLE.exec(text)?.[0] ?? '';
  return found === '\u0000'
    ? 'holds a NUL character (U+0000), which cannot be stored: remove it'
    : `holds a lone UTF-16 surrogate (U+${found.charCodeAt(0).toString(16).toUpperCase()}), which is not text: send valid Unicode`;
}

/**
 * The first string (or object key) in `value` holding a character PostgreSQL cannot store,
 * with its path (`body.content`, `params.id`), or null when every string is storable.
 */
export function findUnstorableText(value: unknown, path: string, depth = 0): UnstorableText | null {
  if (typeof value === 'string') {
    return UNSTORABLE.test(value) ? { path, message: describe(value) } : null;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) {
    return null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}.${i}`, depth + 1);
      if (found) {
        return found;
      }
    }
    return null;
  }
  // Only parsed JSON is walked: bytes (an uploaded PDF) and streams are not text.
  if (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    typeof (value as { pipe?: unknown }).pipe === 'function'
  ) {
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (UNSTORABLE.test(key)) {
      return { path: `${path} (a key)`, message: describe(key) };
    }
    const found = findUnstorableText(inner, `${path}.${key}`, depth + 1);
    if (found) {
      return found;
    }
  }
  return null;
}

/**
 * Text PostgreSQL refuses is refused at the edge, for every route: a 400 naming the field, and
 * nothing changes (docs/decisions.md "Text that PostgreSQL refuses"). Runs before each route's
 * schema validation, over params, query and body.
 */
export const storableTextPlugin = fp(
  (app: FastifyInstance) => {
    app.addHook('preValidation', (request): Promise<void> => {
      for (const [where, value] of [
        ['params', request.params],
        ['query', request.query],
        ['body', request.body],
      ] as const) {
        const found = findUnstorableText(value, where);
        if (found) {
          return Promise.reject(
            badRequest(`${found.path} ${found.message}, then send it again.`, [
              { path: found.path, message: found.message },
            ]),
          );
        }
      }
      return Promise.resolve();
    });
  },
  { name: 'storable-text' },
);
