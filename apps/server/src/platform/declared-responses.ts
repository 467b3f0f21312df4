import type { FastifyInstance, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { errorResponses, type ERROR_NAMES } from '@loopdesk/contracts/errors.ts';
import { patientDataUseOf } from './audit.ts';
import { errorBody } from './errors.ts';

type Status = keyof typeof ERROR_NAMES;

/** The routes the OpenAPI documents describe: the assistant's API and the portal's. */
export const isApiV1 = (url: string) => url.startsWith('/api/v1/');
export const isDocumentedUrl = (url: string) => isApiV1(url) || url.startsWith('/internal/');

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses every route of the API can answer, whatever it does: 400 for input it
 * validates (or a body that is not JSON), 401 without credentials, 413 and 415 for a body too
 * large or of another type, 429 where a rate limit applies, 500 for a fault of ours, 503 on a route
 * of patient data when its audit entry cannot be written. A route adds
 * its own (403, 404, 409…) to its response schemas.
 */
export function commonErrors(route: Pick<RouteOptions, 'method' | 'schema' | 'config' | 'url'>) {
  const methods = [route.method].flat().map(String);
  const schema = route.schema ?? {};
  const takesBody = methods.some((method) => BODY_METHODS.has(method));
  const hasInput = Boolean(schema.params ?? schema.querystring ?? schema.headers ?? schema.body);
  const limited =
    isApiV1(route.url) || Boolean((route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
  const statuses: Status[] = [
    ...(hasInput || takesBody ? ([400] as const) : []),
    401,
    ...(takesBody ? ([413, 415] as const) : []),
    ...(limited ? ([429] as const) : []),
    500,
    // A route of patient data answers 503 when its audit entry cannot be written (audit.ts).
    ...(methods.some((method) => patientDataUseOf(`${method} ${route.url}`))
      ? ([503] as const)
      : []),
  ];
  return errorResponses(statuses);
}

/**
 * Declares on every `/api/v1` and `/internal` route the error statuses it can answer, in the one
 * error shape (its response schemas: what the OpenAPI documents list and the serializer checks),
 * and puts every `/api/v1` route under the API keys' rate limit: `API_RATE_LIMIT` requests a
 * minute for each key. Register before the routes.
 */
export function declareApiResponses(app: FastifyInstance, options: { apiRateLimit: number }) {
  const limiter = app.rateLimit({
    max: options.apiRateLimit,
    timeWindow: '1 minute',
    // One budget per API key (the Authorization header), else per address.
    keyGenerator: (request) => request.headers.authorization ?? request.ip,
  });
  app.addHook('onRoute', (route) => {
    if (!isDocumentedUrl(route.url)) {
      return;
    }
    route.schema = {
      ...route.schema,
      response: { ...commonErrors(route), ...(route.schema?.response as object | undefined) },
    };
    if (isApiV1(route.url)) {
      route.onRequest = [route.onRequest ?? []].flat().concat(limiter);
    }
  });
}

/**
 * Tests only (`LOOPDESK_CHECK_RESPONSES=1`, set by the server's vitest config): every answer of an
 * `/api/v1` or `/internal` route is checked against the response schema its route declares for
 * that status. A status the route does not declare, or a JSON body its schema refuses, becomes a
 * 500 naming the drift (and is printed), so that the test which met it fails.
 */
export function checkResponses(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (!url || !isDocumentedUrl(url) || request.method === 'HEAD') {
      return payload;
    }
    const responses = (request.routeOptions.schema?.response ?? {}) as Record<
      string,
      Partial<z.ZodType>
    >;
    const status = reply.statusCode;
    const schema = responses[status] ?? responses[`${String(status).charAt(0)}XX`];
    const where = `${request.method} ${url} answered ${status}`;
    let drift: string | null = null;
    if (!schema) {
      drift = `${where}, which its route does not declare (it declares ${Object.keys(responses).join(', ')})`;
    } else if (
      typeof schema.safeParse === 'function' &&
      typeof payload === 'string' &&
      /json/.test(String(reply.getHeader('content-type') ?? ''))
    ) {
      const result = schema.safeParse(JSON.parse(payload));
      if (!result.success) {
        drift = `${where} with a body its schema refuses: ${result.error.message}`;
      }
    }
    if (drift === null) {
      return payload;
    }
    console.error(`Response drift: ${drift}`);
    void reply.status(500).type('application/json');
    return JSON.stringify(errorBody(500, `Response drift: ${drift}`));
  });
}
