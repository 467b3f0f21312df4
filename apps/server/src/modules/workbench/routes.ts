import type { FastifyRequest } from 'fastify';
import { MESSAGE_OPERATION_BODIES, TENANT_HEADER } from '@loopdesk/contracts/quinn.ts';
import type { ApiRouter, ApiV1Registrar } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { badRequest } from '../../platform/errors.ts';
import { toRequestView } from './repository.ts';
import type { QuinnService } from './service.ts';

const userOf = (request: FastifyRequest) => request.user?.id ?? null;

/**
 * The portal's questions to the assistant (spec 1 §7): `/internal/quinn/...` for the portal, and
 * `/api/v1/requests` where the assistant reads and answers them with its API key.
 */
export function registerQuinnRoutes(deps: {
  api: ApiRouter;
  v1: ApiV1Registrar;
  service: QuinnService;
}): void {
  const { api, v1, service } = deps;

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
  v1.registerApiV1(
    'GET /api/v1/requests',
    {
      docs: {
        tags: ['requests'],
        summary: "The portal's pending questions, oldest first (long poll with ?wait=)",
      },
    },
    async (request, reply) => {
      // The assistant hanging up ends the wait.
      const hangUp = new AbortController();
      const onClose = () => hangUp.abort();
      reply.raw.once('close', onClose);
      try {
        const rows = await service.readByAssistant(
          request.query,
          hangUp.signal,
          v1.apiKeyName(request),
          requestOrigin(request),
        );
        return { requests: rows.map(toRequestView) };
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  v1.registerApiV1(
    'POST /api/v1/requests/:id/answer',
    {
      docs: {
        tags: ['requests'],
        summary: 'Answer a question of the portal (or say why there is no answer)',
      },
    },
    async (request) =>
      toRequestView(
        await service.answerByAssistant(
          request.params.id,
          request.body,
          v1.apiKeyName(request),
          requestOrigin(request),
        ),
      ),
  );
}
