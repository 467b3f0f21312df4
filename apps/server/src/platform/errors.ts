import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_NAMES, type ErrorBody } from '@loopdesk/contracts/errors.ts';

type Status = keyof typeof ERROR_NAMES;

/** An error whose message is safe to show the caller: it says what to fix. */
export class AppError extends Error {
  constructor(
    readonly statusCode: Status,
    message: string,
    readonly details?: ErrorBody['details'],
    /** The `WWW-Authenticate` challenge a 401 (or a 403 for a missing privilege) carries. */
    readonly challenge?: BearerChallenge,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * A Bearer challenge (RFC 6750 §3): `error` is absent when no credentials were sent,
 * `invalid_request` for a malformed Authorization header, `invalid_token` for a token that is
 * not valid (unknown, expired, revoked, ended session), `insufficient_scope` for a missing
 * privilege.
 */
export interface BearerChallenge {
  readonly realm?: string;
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** The privileges needed, for `insufficient_scope`. */
  readonly scope?: readonly string[];
}

/** The realm of Loopdesk's challenges unless one names its own. */
export const DEFAULT_REALM = 'loopdesk';

/** The `WWW-Authenticate` header value of a challenge: `Bearer realm="…", error="…"`. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params = [`realm="${challenge.realm ?? DEFAULT_REALM}"`];
  if (challenge.error) {
    params.push(`error="${challenge.error}"`);
  }
  if (challenge.scope?.length) {
    params.push(`scope="${challenge.scope.join(' ')}"`);
  }
  return `Bearer ${params.join(', ')}`;
}

export const badRequest = (message: string, details?: ErrorBody['details']) =>
  new AppError(400, message, details);
/** A 401: every one carries a Bearer challenge (RFC 9110 §15.5.2, RFC 6750 §3). */
export const unauthorized = (message: string, challenge: BearerChallenge = {}) =>
  new AppError(401, message, undefined, challenge);
/** A 403; `challenge` when what is missing is a privilege (`insufficient_scope`). */
export const forbidden = (message: string, challenge?: BearerChallenge) =>
  new AppError(403, message, undefined, challenge);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

/** Builds the one error body: `{ error, message, details? }`. */
export function errorBody(
  statusCode: Status,
  message: string,
  details?: ErrorBody['details'],
): ErrorBody {
  return details
    ? { error: ERROR_NAMES[statusCode], message, details }
    : { error: ERROR_NAMES[statusCode], message };
}

function isStatus(code: number): code is Status {
  return code in ERROR_NAMES;
}

/** The one error handler: every 4xx says what to fix, a 5xx never leaks internals. */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        if (error.challenge) {
          void reply.header('www-authenticate', bearerChallenge(error.challenge));
        }
        return reply
          .status(error.statusCode)
          .send(errorBody(error.statusCode, error.message, error.details));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const where = error.validationContext ?? 'request';
        const details = error.validation.map((issue) => {
          const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
          return {
            path: path ? `${where}.${path}` : where,
            message: issue.message ?? 'is invalid',
          };
        });
        return reply
          .status(400)
          .send(
            errorBody(
              400,
              `Invalid ${where}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
              details,
            ),
          );
      }
      const status = error.statusCode ?? 500;
      if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply
          .status(413)
          .send(
            errorBody(
              413,
              `The request body is larger than the limit of ${app.initialConfig.bodyLimit ?? 0} bytes.`,
            ),
          );
      }
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        // RFC 9110 §15.5.16: a body of a type the route does not take is 415, not 400.
        const type = request.headers['content-type'] ?? 'none';
        return reply
          .status(415)
          .send(
            errorBody(
              415,
              `Unsupported Content-Type '${type}': send the body as application/json.`,
              [{ path: 'headers.content-type', message: 'must be application/json' }],
            ),
          );
      }
      if (status >= 400 && status < 500 && isStatus(status)) {
        // Fastify's own 4xx (bad JSON, unsupported media type…) carry a safe message.
        return reply.status(status).send(errorBody(status, error.message));
      }
      if (status >= 400 && status < 500) {
        return reply.status(400).send(errorBody(400, error.message));
      }
      request.log.error({ err: error }, 'request failed');
      return reply
        .status(500)
        .send(
          errorBody(500, 'Something went wrong on our side. The error has been logged; try again.'),
        );
    });
  },
  { name: 'errors' },
);

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route runs (a path parameter
 * longer than the router takes, a URL it cannot decode), in the one error shape rather than
 * Fastify's own `{ error, code, message, statusCode }`.
 */
export function routerRefusal(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply
      .status(414)
      .send(
        errorBody(
          414,
          'A path parameter is longer than 100 characters: send a shorter identifier.',
        ),
      );
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply
      .status(400)
      .send(errorBody(400, 'The URL could not be decoded: percent-encode its path parameters.'));
    return;
  }
  void reply
    .status(400)
    .send(errorBody(400, 'The request could not be routed: check its method, path and headers.'));
}

/**
 * Waits for something built in the background from the knowledge base (concept search, the
 * recogniser: issue 22). A build that failed answers 503 with what to do, rather than a partial
 * answer or an unexplained 500.
 */
export async function awaitBuild(ready: Promise<void>, what: string): Promise<void> {
  try {
    await ready;
  } catch (error) {
    throw new AppError(
      503,
      `${what} is not available: building it from the knowledge base failed (${(error as Error).message}). Fix the knowledge base (KB_PATH) and restart the server; the server log has the error.`,
    );
  }
}
