import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnsweredRequestView,
  AnswerRequestBody,
  MESSAGE_OPERATION_BODIES,
  RequestIdParams,
  RequestList,
  RequestsQuery,
  TENANT_HEADER,
} from '@loopdesk/contracts/quinn.ts';
import { errorResponses } from '@loopdesk/contracts/errors.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import type { Database } from '../../platform/db/database.ts';
import { createApiKeysService, type RequestApiKey } from '../integration/api-keys.ts';
import { toRequestView } from './repository.ts';
import type { QuinnService } from './service.ts';

const apiKeySecurity = [{ apiKey: [] }];

const userOf = (request: FastifyRequest) => request.user?.id ?? null;

/**
 * The portal's questions to the assistant (spec 1 §7): `/internal/quinn/...` for the portal, and
 * `/api/v1/requests` where the assistant reads and answers them with its API key.
 */
export async function registerQuinnRoutes(
  app: FastifyInstance,
  deps: { api: ApiRouter; db: Database; service: QuinnService },
): Promise<void> {
  const { api, db, service } = deps;

  // ------------------------------------------------------------------------- portal side
  api.route('GET /internal/quinn/intents/:intent/_context_menu', async (request) => {
    const { intent } = request.params;
    const tenant = request.headers[TENANT_HEADER];
    return service.ask({
      kind: 'intent.context_menu',
      tenant,
      body: { intent },
      cacheKey: intent,
      requestedBy: userOf(request),
    });
  });

  api.route('POST /internal/quinn/conversations/:id/_memory', async (request) => {
    const { id } = request.params;
    const tenant = request.headers[TENANT_HEADER];
    return service.ask({
      kind: 'conversation.memory',
      tenant,
      body: { conversationId: id },
      requestedBy: userOf(request),
    });
  });

  api.route('POST /internal/quinn/messages/:operation', async (request) => {
    const { operation } = request.params;
    const tenant = request.headers[TENANT_HEADER] ?? request.query.tenant;
    if (!tenant) {
      throw badRequest(
        `Name the tenant of the job: send the ${TENANT_HEADER} header or the tenant query parameter.`,
        [{ path: `headers.${TENANT_HEADER}`, message: 'is required' }],
      );
    }
    const parsed = MESSAGE_OPERATION_BODIES[operation].safeParse(request.body ?? {});
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => ({
        path: ['body', ...issue.path.map(String)].join('.'),
        message: issue.message,
      }));
      throw badRequest(
        `Invalid body of message.${operation}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
        details,
      );
    }
    return service.ask({
      kind: `message.${operation}`,
      tenant: tenant.trim(),
      body: parsed.data,
      requestedBy: userOf(request),
    });
  });

  // ---------------------------------------------------------------- assistant side (/api/v1)
  const apiKeys = createApiKeysService(db);
  await app.register(
    (plugin) => {
      const v1 = plugin.withTypeProvider<ZodTypeProvider>();
      // Before the body is parsed: a stranger learns nothing about the schemas.
      const keys = new WeakMap<FastifyRequest, RequestApiKey>();
      v1.addHook('onRequest', async (request) => {
        keys.set(request, await apiKeys.authenticate(request.headers.authorization));
      });
      const keyOf = (request: FastifyRequest): RequestApiKey => {
        const key = keys.get(request);
        if (!key) {
          throw unauthorized('This API needs an API key.');
        }
        return key;
      };

      v1.get(
        '/requests',
        {
          schema: {
            tags: ['requests'],
            summary: "The portal's pending questions, oldest first (long poll with ?wait=)",
            security: apiKeySecurity,
            querystring: RequestsQuery,
            response: { 200: RequestList },
          },
        },
        async (request, reply) => {
          const apiKey = keyOf(request);
          // The assistant hanging up ends the wait.
          const hangUp = new AbortController();
          const onClose = () => hangUp.abort();
          reply.raw.once('close', onClose);
          try {
            const rows = await service.readByAssistant(
              request.query,
              hangUp.signal,
              apiKey.name,
              requestOrigin(request),
            );
            return { requests: rows.map(toRequestView) };
          } finally {
            reply.raw.off('close', onClose);
          }
        },
      );

      v1.post(
        '/requests/:id/answer',
        {
          schema: {
            tags: ['requests'],
            summary: 'Answer a question of the portal (or say why there is no answer)',
            security: apiKeySecurity,
            params: RequestIdParams,
            body: AnswerRequestBody,
            response: { 200: AnsweredRequestView, ...errorResponses([404, 409]) },
          },
        },
        async (request) => {
          const apiKey = keyOf(request);
          return toRequestView(
            await service.answerByAssistant(
              request.params.id,
              request.body,
              apiKey.name,
              requestOrigin(request),
            ),
          );
        },
      );
      return Promise.resolve();
    },
    { prefix: '/api/v1' },
  );
}
