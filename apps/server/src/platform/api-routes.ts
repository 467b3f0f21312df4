import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { API_ROUTES, routeKey, type ApiRoute } from '@loopdesk/contracts/routes.ts';
import { NOT_BUILT_MESSAGE } from '@loopdesk/contracts/errors.ts';
import { errorBody } from './errors.ts';
import { authenticate, authorize } from './auth/guard.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { TokenService } from './auth/tokens.ts';

type TableKey = (typeof API_ROUTES)[number] extends infer R
  ? R extends { method: infer M extends string; path: infer P extends string }
    ? `${M} ${P}`
    : never
  : never;

const TABLE = new Map<string, ApiRoute>(API_ROUTES.map((route) => [routeKey(route), route]));

/** Guards and registers the `/internal` routes of the contracts' route table. */
export function createApiRouter(
  app: FastifyInstance,
  tokens: TokenService,
  sessions: SessionStore,
) {
  const built = new Set<string>();

  const guardFor = (route: ApiRoute) => async (request: FastifyRequest) => {
    const user = await authenticate(request, tokens, sessions);
    authorize(user, route.access);
  };

  return {
    /** Registers a handler for a route of the table; its privilege comes from the table. */
    route(
      key: TableKey,
      options: RouteShorthandOptions,
      handler: (request: FastifyRequest, reply: FastifyReply) => unknown,
    ): void {
      const route = TABLE.get(key);
      if (!route) {
        throw new Error(`${key} is not in the route table of packages/contracts`);
      }
      built.add(key);
      app.route({
        ...options,
        method: route.method,
        url: route.path,
        // Authenticate before the body is even parsed: no validation detail leaks to strangers.
        onRequest: guardFor(route),
        handler,
      });
    },
    /** Every route of the table not built yet answers 501 after the privilege check. */
    registerNotBuilt(): void {
      for (const route of API_ROUTES) {
        if (built.has(routeKey(route))) {
          continue;
        }
        app.route({
          method: route.method,
          url: route.path,
          onRequest: guardFor(route),
          handler: async (_request, reply) =>
            reply.status(501).send(errorBody(501, NOT_BUILT_MESSAGE)),
        });
      }
    },
  };
}

export type ApiRouter = ReturnType<typeof createApiRouter>;
