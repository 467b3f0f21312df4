import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { operationIdOf } from '@loopdesk/contracts/routes.ts';
import { isApiV1, isDocumentedUrl } from '../../platform/declared-responses.ts';

/** An OpenAPI document as @fastify/swagger builds it (only what is read here is typed). */
interface OpenApiDocument {
  info: Record<string, unknown>;
  paths?: Record<string, unknown>;
  tags?: { name: string; description?: string }[];
  components?: { securitySchemes?: Record<string, unknown> } & Record<string, unknown>;
  [key: string]: unknown;
}

/** The two documents: the assistant's `/api/v1` and the portal's `/internal`. */
export type DocumentName = 'api' | 'internal';

/** The tags of the portal's document: one per area of the route table, and the admins'. */
const INTERNAL_TAGS: Record<string, string> = {
  admin: 'API keys and webhook deliveries of the integration API (staff admins)',
  analytics: 'Counts and exports of the work done',
  'async-jobs': 'Background tasks and their knowledge-base versions',
  conversations: "The exception desk's conversations, their messages and patients",
  'data-preparation': 'Data sets prepared for annotation',
  exceptions: 'The exception desk: queues, holding and ending conversations',
  intelligence: 'Knowledge base, search and suggestions',
  integration: 'The integration API, seen from the portal',
  jobs: 'Jobs of the technicians: read, requeue, dead jobs',
  messaging: 'Direct messages between staff and patients, and signed telehealth deep links',
  nlp: 'Language tools (annotation, entity lookups)',
  notifications: 'Push notifications to patients: broadcasts and test sends',
  'deep-links': 'Signed telehealth deep links',
  realtime: 'Queues, sockets and sessions',
  scheduling: 'Physicians and appointments',
  summaries: 'Summaries of conversations',
  system: 'System administration',
  users: 'Users, roles and privileges',
};

const API_TAGS: Record<string, string> = {
  jobs: 'Create, read and cancel jobs',
  events: 'The outbox as a pull feed',
  requests: "The portal's questions to the assistant: read them, answer them",
  conversations: 'Conversations of the exception desk, their messages and handovers',
  scheduling: 'The physician directory the desk schedules with',
  documents: 'Guideline documents registered for data preparation',
  messaging: 'Patients staff may message, and their replies in direct messaging threads',
  notifications: 'Receipts of the push notifications the assistant fanned out',
  'deep-links': 'Check a telehealth deep link before opening it',
};

/**
 * The Bearer challenges (RFC 6750 §3) as header components: every 401 carries one, and a 403 of
 * the portal's API when what is missing is a privilege.
 */
const CHALLENGES = {
  BearerChallenge: {
    description:
      'The Bearer challenge of a 401: `Bearer realm="loopdesk"` when no credentials were sent, with `error="invalid_request"` for a malformed Authorization header and `error="invalid_token"` for a token or key that is not valid.',
    required: true,
    schema: { type: 'string', examples: ['Bearer realm="loopdesk", error="invalid_token"'] },
  },
  InsufficientScope: {
    description:
      'When a privilege is missing: `Bearer realm="loopdesk", error="insufficient_scope", scope="…"` naming the privileges that would do.',
    required: false,
    schema: { type: 'string' },
  },
} as const;

const CHALLENGE_OF = { 401: 'BearerChallenge', 403: 'InsufficientScope' } as const;

type Operation = { tags?: string[]; responses?: Record<string, object> };

/** An operation whose 401 (and 403 of a missing privilege) says which header it carries. */
function withChallenges(operation: Operation, name: DocumentName): Operation {
  if (!operation.responses) {
    return operation;
  }
  const responses = { ...operation.responses };
  for (const status of name === 'api' ? ([401] as const) : ([401, 403] as const)) {
    const response = responses[status];
    if (response) {
      const $ref = `#/components/headers/${CHALLENGE_OF[status]}`;
      responses[status] = { ...response, headers: { 'WWW-Authenticate': { $ref } } };
    }
  }
  return { ...operation, responses };
}

/**
 * One of the two documents, cut from the whole one @fastify/swagger generates: its paths, the
 * tags they use, and its security scheme.
 */
export function documentOf(whole: OpenApiDocument, name: DocumentName): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(whole.paths ?? {})
      .filter(([path]) => (name === 'api' ? isApiV1(path) : path.startsWith('/internal/')))
      .map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item as Record<string, Operation>).map(([method, operation]) => [
            method,
            withChallenges(operation, name),
          ]),
        ),
      ]),
  );
  const descriptions = name === 'api' ? API_TAGS : INTERNAL_TAGS;
  const used = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item as Record<string, { tags?: string[] }>).flatMap(
        (operation) => operation.tags ?? [],
      ),
    ),
  );
  const schemes =
    name === 'api' ? ['apiKey'] : ['staffToken', 'analyticsAddressToken', 'analyticsViewToken'];
  return {
    ...whole,
    info: {
      ...whole.info,
      title: name === 'api' ? 'Loopdesk integration API' : 'Loopdesk portal API',
      description:
        name === 'api'
          ? 'The assistant sends jobs with an API key and reads results from a pull feed or its webhook (Standard Webhooks). Every error answers in one shape: `{ error, message, details? }`. The portal’s own API is at /docs/internal/json. See docs/integration-api.md.'
          : 'The `/internal` routes the portal calls with a staff access token, each with the privilege it needs (the built-in analytics page calls its own with the signed tokens it is given). Every error answers in one shape: `{ error, message, details? }`. The assistant’s API is at /docs/json.',
    },
    tags: [...used].sort().map((tag) => ({
      name: tag,
      description: descriptions[tag] ?? `The ${tag} routes`,
    })),
    paths,
    components: {
      ...whole.components,
      securitySchemes: Object.fromEntries(
        schemes.map((scheme) => [scheme, whole.components?.securitySchemes?.[scheme]]),
      ),
      headers: name === 'api' ? { BearerChallenge: CHALLENGES.BearerChallenge } : { ...CHALLENGES },
    },
  };
}

/**
 * The OpenAPI 3.1 documents, generated from the route schemas (the contracts' route table for
 * `/internal`, the contracts' schemas of `/api/v1`): the assistant's at `/docs/json` (Swagger UI
 * at `/docs`), the portal's at `/docs/internal/json`. Every operation's `operationId` comes from
 * its route key. Register before the routes it should list.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  options: { version: string; publicUrl: string; termsUrl?: string | undefined },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loopdesk API',
        version: options.version,
        license: {
          name: 'Proprietary: all rights reserved',
          url: options.termsUrl || `${options.publicUrl}/docs`,
        },
      },
      servers: [{ url: options.publicUrl, description: 'This Loopdesk server (PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key `ldk_<prefix>_<secret>` created by an admin.',
          },
          staffToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'A staff access token from sign-in; each operation says which privilege it needs.',
          },
          analyticsAddressToken: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description:
              "The built-in analytics page's signed address token (the `token` of the address `GET /internal/analytics/dashboard` answers), short-lived.",
          },
          analyticsViewToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Analytics-View',
            description:
              "The built-in analytics page's view token, which `GET /internal/analytics/embed/_open` gives for its signed address.",
          },
        },
      },
    },
    // The schemas registered with an id (the recursive ones) become components.
    transformObject: jsonSchemaTransformObject,
    transform: (input) => {
      const method = [input.route.method].flat()[0] ?? 'GET';
      if (!isDocumentedUrl(input.url) || method === 'HEAD') {
        return { schema: { hide: true }, url: input.url };
      }
      return jsonSchemaTransform({
        ...input,
        schema: { ...input.schema, operationId: operationIdOf(method, input.url) },
      });
    },
  });
  const cut = (name: DocumentName) => (whole: Record<string, unknown>) =>
    documentOf(whole as OpenApiDocument, name);
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    transformSpecification: cut('api'),
  });
  app.get('/docs/internal/json', { schema: { hide: true } }, () =>
    cut('internal')(structuredClone(app.swagger()) as unknown as Record<string, unknown>),
  );
}
