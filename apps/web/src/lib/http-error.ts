import { ErrorBody } from '@loopdesk/contracts/errors.ts';

/** A non-2xx answer from the server, carrying its `{ error, message, details? }` body when it had one. */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    statusText = '',
  ) {
    // Spec 1 §8: '{error} - {message}' when the answer has a message, otherwise the error's own.
    super(
      body?.message
        ? `${body.error} - ${body.message}`
        : `Request failed with status ${status}${statusText ? ` ${statusText}` : ''}`,
    );
  }
}

/** Reads the error body of a failed response; anything that is not the error shape is dropped. */
export async function httpErrorFrom(response: Response): Promise<HttpError> {
  let body: ErrorBody | undefined;
  try {
    const parsed = ErrorBody.safeParse(await response.json());
    body = parsed.success ? parsed.data : undefined;
  } catch {
    body = undefined;
  }
  return new HttpError(response.status, body, response.statusText);
}

/** The text a toast shows for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  return typeof error === 'string' ? error : 'Something went wrong.';
}
