import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import {
  API_ROUTES,
  API_V1_ROUTES,
  routeKey,
  type ApiRoute,
  type ApiV1Route,
} from '@loopdesk/contracts/routes.ts';
import { errorResponses, NOT_BUILT_MESSAGE } from '@loopdesk/contracts/errors.ts';
import {
  isStaffAccess,
  NoBody,
  type EmbedTokenAccess,
} from '@loopdesk/contracts/routes/api-route.ts';
import type { Access } from '@loopdesk/contracts/privileges.ts';
import { errorBody } from './errors.ts';
import { authenticate, authorize } from './auth/guard.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { TokenService } from './auth/tokens.ts';

type TableRoute = (typeof API_ROUTES)[number] | (typeof API_V1_ROUTES)[number];

/** The routes of the table by their key, `METHOD path`, each with its literal schemas. */
type RoutesByKey = { [R in TableRoute as `${R['method']} ${R['path']}`]: R };

/** Key of a route of the contracts' table: `METHOD path`. */
export type RouteKey = keyof RoutesByKey;

/** Key of an `/api/v1` route of the table (the assistant's, behind an API key). */
export type ApiV1Key = Extract<RouteKey, `${string} /api/v1/${string}`>;

/** What a schema of the route parses to; `unknown` where the route has none. */
type Parsed<R, Field extends string> = R extends { readonly [F in Field]: infer S }
  ? S extends z.ZodType
    ? z.output<S>
    : unknown
  : unknown;

/** Fastify's route generic of a table route: its request is typed by the table's schemas. */
export interface RouteGeneric<K extends RouteKey> {
  Params: Parsed<RoutesByKey[K], 'params'>;
  Querystring: Parsed<RoutesByKey[K], 'query'>;
  Body: Parsed<RoutesByKey[K], 'body'>;
  Headers: Parsed<RoutesByKey[K], 'headers'>;
}

/** The request of a table route, validated and typed by the table's schemas. */
export type RouteRequest<K extends RouteKey> = FastifyRequest<RouteGeneric<K>>;

/** The success answer of a route: what its 2xx response schema accepts (it serialises it). */
type SuccessAnswer<R> = R extends { readonly response: infer Responses }
  ? Responses[Extract<keyof Responses, 200 | 201 | 202 | 204>] extends infer S extends z.ZodType
    ? z.input<S>
    : unknown
  : unknown;

/**
 * A handler of a table route: it returns the success answer (checked against the route's response
 * schema at compile time), or the reply it sent itself (another status, another content type).
 */
export type RouteHandler<K extends RouteKey> = (
  request: RouteRequest<K>,
  reply: FastifyReply,
) =>
  | SuccessAnswer<RoutesByKey[K]>
  | FastifyReply
  | Promise<SuccessAnswer<RoutesByKey[K]> | FastifyReply>;

/**
 * Route options besides the schemas, which all come from the table: hooks such as
 * `preValidation`, and what the OpenAPI document says of the route.
 */
export type RouteOptions = Omit<RouteShorthandOptions, 'schema'> & {
  docs?: {
    readonly tags: readonly string[];
    readonly summary: string;
    /** Said after who may call the route (a limit of this server, the form of an upload). */
    readonly description?: string;
  };
};

type TableEntry = ApiRoute | ApiV1Route;

const TABLE = new Map<string, TableEntry>(
  [...API_ROUTES, ...API_V1_ROUTES].map((route) => [routeKey(route), route]),
);

type StaffRoute = ApiRoute & { readonly access: Access };
type EmbedTokenRoute = ApiRoute & { readonly access: EmbedTokenAccess };

const isStaffRoute = (route: TableEntry): route is StaffRoute => isStaffAccess(route.access);
const isEmbedTokenRoute = (route: TableEntry): route is EmbedTokenRoute =>
  'embedToken' in route.access;

/**
 * Every `/internal` route is called with a staff access token, every `/api/v1` route with an API
 * key, the analytics page's own calls with its signed token (for the OpenAPI documents).
 */
const STAFF_SECURITY = [{ staffToken: [] }];
const API_KEY_SECURITY = [{ apiKey: [] }];
const EMBED_TOKEN_SECURITY = {
  address: [{ analyticsAddressToken: [] }],
  view: [{ analyticsViewToken: [] }],
} as const;

const securityOf = (route: TableEntry) =>
  isStaffRoute(route)
    ? STAFF_SECURITY
    : isEmbedTokenRoute(route)
      ? EMBED_TOKEN_SECURITY[route.access.embedToken]
      : API_KEY_SECURITY;

/** Who may call a route, in words, for the OpenAPI document. */
function whoMayCall(route: TableEntry): string {
  if (isEmbedTokenRoute(route)) {
    return route.access.embedToken === 'address'
      ? "Needs the built-in analytics page's signed address token (`?token=`, from `GET /internal/analytics/dashboard`), whose user holds `analytics:dashboard:view` now."
      : "Needs the built-in analytics page's view token (the `X-Analytics-View` header, from `GET /internal/analytics/embed/_open`), whose user holds `analytics:dashboard:view` now.";
  }
  if (!isStaffRoute(route)) {
    return 'Needs an API key (an admin creates it).';
  }
  const { anyOf } = route.access;
  return anyOf.length
    ? `Needs ${anyOf.length === 1 ? 'the privilege' : 'one of the privileges'} ${anyOf.map((p) => `\`${p}\``).join(', ')}.`
    : 'Any signed-in user.';
}

/** What the OpenAPI document says of a table route besides its schemas. */
function describe(route: TableEntry, docs: RouteOptions['docs']) {
  return {
    tags: docs ? [...docs.tags] : [route.area],
    summary: docs?.summary ?? routeKey(route),
    description: `${whoMayCall(route)} Spec: ${route.spec}.${docs?.description ? ` ${docs.description}` : ''}`,
    security: securityOf(route),
  };
}

/**
 * The errors a table route answers besides the common ones (platform/declared-responses.ts): 403
 * when it needs a privilege, 404 when its path names something. An `/api/v1` route, and the
 * analytics page's own, declare theirs in the table.
 */
function routeErrors(route: TableEntry) {
  if (!isStaffRoute(route)) {
    return {};
  }
  return errorResponses([
    ...(route.access.anyOf.length > 0 ? ([403] as const) : []),
    ...(route.params ? ([404] as const) : []),
  ]);
}

/** The Fastify schema of a table route: validation in, serialisation out, and the document. */
function schemaOf(route: TableEntry, docs: RouteOptions['docs']): FastifySchema {
  return {
    ...describe(route, docs),
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.headers ? { headers: route.headers } : {}),
    // A route that reads no body validates none (and documents none).
    ...(route.body && route.body !== NoBody ? { body: route.body } : {}),
    // A body that is not JSON (an upload): the document offers its schema under these types.
    ...(route.consumes ? { consumes: [...route.consumes] } : {}),
    response: { ...routeErrors(route), ...route.response },
  };
}

/** Checks the API key of an `/api/v1` request, or throws its 401 (the integration API's). */
export type ApiKeyGuard = (request: FastifyRequest) => Promise<void>;

/**
 * Checks the analytics page's signed token of a request (its kind says where it is sent), sets
 * `request.user` to its holder, or throws the 401 or 403 (the analytics module's).
 */
export type EmbedTokenGuard = (
  request: FastifyRequest,
  kind: EmbedTokenAccess['embedToken'],
) => Promise<void>;

/**
 * Guards and registers the routes of the contracts' route table: the `/internal` routes with a
 * staff token and their privilege, the `/api/v1` routes with the API key guard the integration
 * API lends (`useApiKeyGuard`).
 */
export function createApiRouter(
  app: FastifyInstance,
  tokens: TokenService,
  sessions: SessionStore,
) {
  const built = new Set<string>();
  let apiKeyGuard: ApiKeyGuard | null = null;
  let embedTokenGuard: EmbedTokenGuard | null = null;

  const guardFor = (route: TableEntry) => {
    if (isStaffRoute(route)) {
      return async (request: FastifyRequest) => {
        const user = await authenticate(request, tokens, sessions);
        authorize(user, route.access);
      };
    }
    if (isEmbedTokenRoute(route)) {
      const guard = embedTokenGuard;
      if (!guard) {
        throw new Error(`${routeKey(route)} needs the analytics page's token guard`);
      }
      const kind = route.access.embedToken;
      return (request: FastifyRequest) => guard(request, kind);
    }
    const guard = apiKeyGuard;
    if (!guard) {
      throw new Error(
        `${routeKey(route)} needs the API key guard: register it through the integration API`,
      );
    }
    return guard;
  };

  function route<K extends RouteKey>(key: K, handler: RouteHandler<K>): void;
  function route<K extends RouteKey>(key: K, options: RouteOptions, handler: RouteHandler<K>): void;
  /**
   * Registers a handler for a route of the table: its privilege and its schemas (params, query,
   * headers, body, responses) come from the table, and type the handler's request.
   */
  function route<K extends RouteKey>(
    key: K,
    ...args: [RouteHandler<K>] | [RouteOptions, RouteHandler<K>]
  ): void {
    const [{ docs, ...options }, handler] = args.length === 1 ? [{}, args[0]] : args;
    const entry = TABLE.get(key);
    if (!entry) {
      throw new Error(`${key} is not in the route table of packages/contracts`);
    }
    built.add(key);
    app.route<RouteGeneric<K>>({
      ...options,
      method: entry.method,
      url: entry.path,
      schema: schemaOf(entry, docs),
      // Authenticate before the body is even parsed: no validation detail leaks to strangers. The
      // analytics page's token is read from its validated query or header (they carry no body).
      ...(isEmbedTokenRoute(entry)
        ? { preHandler: guardFor(entry) }
        : { onRequest: guardFor(entry) }),
      handler,
    });
  }

  return {
    route,
    /** The check of the API keys that guards every `/api/v1` route (set by the integration API). */
    useApiKeyGuard(guard: ApiKeyGuard): void {
      apiKeyGuard = guard;
    },
    /** The check of the analytics page's signed tokens (set by the analytics module). */
    useEmbedTokenGuard(guard: EmbedTokenGuard): void {
      embedTokenGuard = guard;
    },
    /**
     * Every route of the table not built yet answers 501 after the privilege check, whatever
     * its body: no schema is registered, so nothing is validated before the 501.
     */
    registerNotBuilt(): void {
      for (const entry of API_ROUTES as readonly ApiRoute[]) {
        if (built.has(routeKey(entry)) || !isStaffRoute(entry)) {
          continue;
        }
        app.route({
          method: entry.method,
          url: entry.path,
          // Documented with its path parameters and the answers of the contract it will have;
          // nothing else is validated before the 501.
          schema: {
            ...describe(entry, undefined),
            description: `${describe(entry, undefined).description} Not built yet: answers 501 after the privilege check.`,
            ...(entry.params ? { params: entry.params } : {}),
            response: {
              ...entry.response,
              ...errorResponses([
                ...(entry.access.anyOf.length > 0 ? ([403] as const) : []),
                ...(entry.params ? ([400] as const) : []),
                501,
              ]),
            },
          },
          onRequest: guardFor(entry),
          handler: async (_request, reply) =>
            reply.status(501).send(errorBody(501, NOT_BUILT_MESSAGE)),
        });
      }
    },
  };
}

export type ApiRouter = ReturnType<typeof createApiRouter>;

/**
 * What a module needs to add `/api/v1` routes of the table (`app.integration` lends it): each is
 * registered behind the API keys with its schemas from the table, and its handler learns which
 * key called.
 */
export interface ApiV1Registrar {
  registerApiV1<K extends ApiV1Key>(key: K, options: RouteOptions, handler: RouteHandler<K>): void;
  /** The name of the API key of a request of an `/api/v1` route (for the audit trail). */
  apiKeyName(request: FastifyRequest): string;
}
