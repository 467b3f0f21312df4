import { z } from 'zod';

/** The one error shape every endpoint answers with: `{ error, message, details? }`. */
export const ErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  details: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('For 400: each failing field path with what to fix'),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The error answers of a route, for its response schemas (and the OpenAPI document). */
export const ERROR_RESPONSES = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
} as const;

/**
 * The error answers of a route by status code, each in the one error shape: what the route
 * schemas declare (and the OpenAPI documents list) for the statuses a route can answer.
 */
export function errorResponses(
  statuses: readonly (keyof typeof ERROR_NAMES)[],
): Partial<Record<keyof typeof ERROR_NAMES, typeof ErrorBody>> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

/** The `error` word used for each status code. */
export const ERROR_NAMES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
} as const;

/** Message of a route that a later issue builds (answered after the privilege check). */
export const NOT_BUILT_MESSAGE = 'This endpoint is not available yet.';
