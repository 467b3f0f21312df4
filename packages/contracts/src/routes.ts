import { USERS_ROUTES } from './routes/users.ts';
import { REALTIME_ROUTES } from './routes/realtime.ts';
import { JOBS_ROUTES } from './routes/jobs.ts';
import { SUMMARIES_ROUTES } from './routes/summaries.ts';
import { INTELLIGENCE_ROUTES } from './routes/intelligence.ts';
import { NLP_ROUTES } from './routes/nlp.ts';
import { EXCEPTIONS_ROUTES } from './routes/exceptions.ts';
import { CONVERSATIONS_ROUTES } from './routes/conversations.ts';
import { DATA_PREPARATION_ROUTES } from './routes/data-preparation.ts';
import { AUTHORING_ROUTES } from './routes/authoring.ts';
import { ASYNC_JOBS_ROUTES } from './routes/async-jobs.ts';
import { SYSTEM_ROUTES } from './routes/system.ts';
import { SCHEDULING_ROUTES } from './routes/scheduling.ts';
import { MESSAGING_ROUTES } from './routes/messaging.ts';
import { NOTIFICATIONS_ROUTES } from './routes/notifications.ts';
import { ANALYTICS_ROUTES } from './routes/analytics.ts';
import { INTEGRATION_ROUTES } from './routes/integration.ts';

export type {
  ApiKeyAccess,
  ApiRoute,
  ApiV1Route,
  Area,
  EmbedTokenAccess,
  HttpMethod,
  PatientDataUse,
  ResponseSchemas,
} from './routes/api-route.ts';
import type { ApiRoute } from './routes/api-route.ts';
/** Every `/api/v1` route of the assistant's integration API, behind an API key. */
export { API_V1_ROUTES } from './routes/api-v1.ts';

/**
 * Every `/internal` route of spec documents 1–3 with its privilege and schemas, one file per area
 * under `routes/`. Where the spec leaves a path "not shown", the path chosen there is written down
 * in docs/decisions.md.
 */
export const API_ROUTES = [
  ...USERS_ROUTES,
  ...REALTIME_ROUTES,
  ...JOBS_ROUTES,
  ...SUMMARIES_ROUTES,
  ...INTELLIGENCE_ROUTES,
  ...NLP_ROUTES,
  ...EXCEPTIONS_ROUTES,
  ...CONVERSATIONS_ROUTES,
  ...DATA_PREPARATION_ROUTES,
  ...AUTHORING_ROUTES,
  ...ASYNC_JOBS_ROUTES,
  ...SYSTEM_ROUTES,
  ...SCHEDULING_ROUTES,
  ...MESSAGING_ROUTES,
  ...NOTIFICATIONS_ROUTES,
  ...ANALYTICS_ROUTES,
  ...INTEGRATION_ROUTES,
] as const satisfies readonly ApiRoute[];

/** Key of a route in the table: `METHOD path`. */
export function routeKey(route: Pick<ApiRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/**
 * The OpenAPI `operationId` of a route, from its key: the method and the path's words in camel
 * case, `:params` as `By<Param>`, without the document's prefix (`/api/v1` or `/internal`). So
 * `GET /api/v1/jobs/:id` is `getJobsById` and `POST /internal/integration/api-keys` is
 * `postIntegrationApiKeys`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/(api\/v1|internal)(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':')
        ? ['by', ...segment.slice(1).split(/[^A-Za-z0-9]+/)]
        : segment.split(/[^A-Za-z0-9]+/),
    )
    .filter(Boolean);
  return [
    method.toLowerCase(),
    ...words.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`),
  ].join('');
}

/** Fills a route path's `:params` (URI-encoded), for clients. */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) {
      throw new Error(`Missing path parameter ${name} for ${path}`);
    }
    return encodeURIComponent(value);
  });
}
