import { ErrorBody } from '@loopdesk/contracts/errors.ts';
import type { z } from 'zod';

/**
 * A non-2xx answer from the server, carrying its `{ error, message, details? }` body when it had
 * one, and the keys some routes add to it (a 409 of authoring: `current`, `holder`) in `extra`.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    statusText = '',
    /** The keys of the answer beyond the error shape, unchecked: read them with `bodyAs`. */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    // Spec 1 §8: '{error} - {message}' when the answer has a message, otherwise the error's own.
    super(
      body?.message
        ? `${body.error} - ${body.message}`
        : `Request failed with status ${status}${statusText ? ` ${statusText}` : ''}`,
    );
  }

  /**
   * The whole answer read through a route's own error schema (one that extends `ErrorBody`), or
   * undefined when it does not have that shape.
   */
  bodyAs<S extends z.ZodType>(schema: S): z.output<S> | undefined {
    if (!this.body) {
      return undefined;
    }
    const parsed = schema.safeParse({ ...this.extra, ...this.body });
    return parsed.success ? parsed.data : undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the error body of a failed response. An answer that is not the error shape is dropped;
 * the keys an error body carries beyond the shape are kept in `extra`.
 */
export async function httpErrorFrom(response: Response): Promise<HttpError> {
  let body: ErrorBody | undefined;
  let extra: Record<string, unknown> = {};
  try {
    const json: unknown = await response.json();
    const parsed = ErrorBody.safeParse(json);
    if (parsed.success && isRecord(json)) {
      body = parsed.data;
      extra = Object.fromEntries(Object.entries(json).filter(([key]) => !(key in ErrorBody.shape)));
    }
  } catch {
    body = undefined;
  }
  return new HttpError(response.status, body, response.statusText, extra);
}

/** The text a toast shows for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return typeof error === 'string' ? error : 'Something went wrong.';
}
