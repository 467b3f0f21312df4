import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ApiRouter,
  ApiV1Key,
  ApiV1Registrar,
  RouteHandler,
  RouteOptions,
} from '../../platform/api-routes.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { unauthorized } from '../../platform/errors.ts';
import { observeStep } from '../../platform/metrics.ts';
import { createApiKeysService, toApiKeyView, type RequestApiKey } from './api-keys.ts';
import { createDeliveriesService } from './deliveries.ts';
import { toJobView } from '../jobs/events.ts';
import { registerOutboxMetrics } from './metrics.ts';
import { createOutboxRepository, feedPosition, toDeliveryView, toOutboxEvent } from './outbox.ts';
import { createIntegrationJobsService, type JobHooks } from './service.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { WebhookWorker } from './webhook-worker.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of an `/api/v1` request. */
    apiKey: RequestApiKey | null;
  }
}

/**
 * What the integration API lends other modules: job hooks, and `/api/v1` routes of the contracts'
 * table (`API_V1_ROUTES`) behind the API keys (`registerApiV1('PUT /api/v1/physicians/:id',
 * { docs }, handler)`, the calling key by `apiKeyName(request)`).
 */
export interface Integration extends ApiV1Registrar {
  /** Checks each new job inside its transaction, and hears of it after commit (issue 5 tasks). */
  addJobHooks(hooks: JobHooks): void;
}

/**
 * The assistant's integration API (issue 6): `/api/v1` guarded by API keys,
 * the admin routes of the route table, and the webhook worker when ASSISTANT_WEBHOOK_URL is set.
 */
export function registerIntegration(
  app: FastifyInstance,
  deps: {
    api: ApiRouter;
    db: Database;
    bus: Bus;
    config: Config;
    /** The realtime hub: new jobs go straight to waiting technicians (the direct hand-off). */
    dispatcher?: Pick<RealtimeHub, 'enqueue' | 'announce'>;
  },
): Integration {
  const { api, db, bus, config } = deps;

  const url = config.env.ASSISTANT_WEBHOOK_URL;
  const secret = config.env.ASSISTANT_WEBHOOK_SECRET;
  const worker =
    url && secret
      ? new WebhookWorker({
          db,
          url,
          secret,
          maxAttempts: config.env.WEBHOOK_MAX_ATTEMPTS,
          pollMs: config.env.WEBHOOK_POLL_MS,
          log: app.log,
        })
      : null;
  // Keys are checked from memory; a revocation reaches every node through the bus.
  const apiKeys = createApiKeysService(db, { bus });
  app.addHook('onClose', (_instance, done) => {
    apiKeys.close();
    done();
  });
  const outbox = createOutboxRepository(db);
  registerOutboxMetrics(app, outbox);
  const deliveries = createDeliveriesService({ db, outbox, onRedelivery: () => worker?.nudge() });
  const jobHooks: JobHooks[] = [];
  const service = createIntegrationJobsService({
    db,
    bus,
    onEvent: () => worker?.nudge(),
    hooks: jobHooks,
    ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
  });

  const keyOf = (apiKey: RequestApiKey | null): RequestApiKey => {
    if (!apiKey) {
      throw unauthorized('This API needs an API key.');
    }
    return apiKey;
  };
  app.decorateRequest('apiKey', null);
  // ------------------------------------------------------------------ /api/v1 (API keys)
  // Every /api/v1 route of the table is guarded by the API key, read before the body is parsed.
  api.useApiKeyGuard(async (request) => {
    const started = performance.now();
    request.apiKey = await apiKeys.authenticate(request.headers.authorization);
    observeStep('api.authenticate', started);
  });
  const apiKeyName = (request: FastifyRequest) => keyOf(request.apiKey).name;

  api.route(
    'POST /api/v1/jobs',
    {
      docs: { tags: ['jobs'], summary: 'Create a job (idempotent by the Idempotency-Key header)' },
    },
    async (request, reply) => {
      const { job, created } = await service.create(
        request.body,
        request.headers['idempotency-key'],
        keyOf(request.apiKey),
        requestOrigin(request),
      );
      return reply.status(created ? 201 : 200).send(toJobView(job));
    },
  );

  api.route(
    'GET /api/v1/jobs/:id',
    { docs: { tags: ['jobs'], summary: 'Read a job, with its result once completed' } },
    async (request) => {
      const job = await service.get(request.params.id);
      // The job holds patient messages: every read is in the audit trail.
      await recordAudit(
        db,
        {
          action: 'integration.job.read',
          outcome: 'success',
          resourceType: 'job',
          resourceId: job.id,
          statusCode: 200,
          details: { apiKey: apiKeyName(request) },
        },
        requestOrigin(request),
      );
      return toJobView(job);
    },
  );

  api.route(
    'POST /api/v1/jobs/:id/cancel',
    { docs: { tags: ['jobs'], summary: 'Cancel a queued or assigned job' } },
    async (request) =>
      toJobView(
        await service.cancel(request.params.id, keyOf(request.apiKey), requestOrigin(request)),
      ),
  );

  api.route(
    'GET /api/v1/events',
    {
      docs: {
        tags: ['events'],
        summary: 'The outbox as a pull feed, oldest first, after a cursor',
      },
    },
    async (request) => {
      const after = request.query.after;
      const rows = await outbox.feed(after, request.query.limit);
      const last = rows.at(-1);
      if (rows.length > 0) {
        await recordAudit(
          db,
          {
            action: 'integration.events.read',
            outcome: 'success',
            resourceType: 'outbox',
            resourceId: `${after ?? '0_0'}..${last ? feedPosition(last) : ''}`,
            statusCode: 200,
            details: {
              apiKey: apiKeyName(request),
              jobs: [...new Set(rows.map((r) => r.job_id))],
            },
          },
          requestOrigin(request),
        );
      }
      return {
        events: rows.map(toOutboxEvent),
        nextCursor: last ? feedPosition(last) : (after ?? '0_0'),
      };
    },
  );

  // ------------------------------------------------- /internal/integration (staff admins)
  const staff = (request: { user: { id: string; email: string } | null }) => ({
    userId: request.user?.id ?? null,
    email: request.user?.email ?? null,
    via: 'api' as const,
  });

  api.route(
    'GET /internal/integration/api-keys',
    { docs: { tags: ['admin'], summary: 'List API keys (never their secrets)' } },
    async () => ({ apiKeys: (await apiKeys.list()).map(toApiKeyView) }),
  );

  api.route(
    'POST /internal/integration/api-keys',
    {
      docs: { tags: ['admin'], summary: 'Create an API key: the full key is in this answer only' },
    },
    async (request, reply) => {
      const { name } = request.body;
      const { row, key } = await apiKeys.create(name, staff(request), requestOrigin(request));
      return reply.status(201).send({ ...toApiKeyView(row), key });
    },
  );

  api.route(
    'DELETE /internal/integration/api-keys/:id',
    { docs: { tags: ['admin'], summary: 'Revoke an API key (at once, on every node)' } },
    async (request) => {
      const { id } = request.params;
      return toApiKeyView(await apiKeys.revoke(id, staff(request), requestOrigin(request)));
    },
  );

  api.route(
    'GET /internal/integration/webhook-deliveries',
    {
      docs: {
        tags: ['admin'],
        summary: 'Webhook deliveries, newest first (?state=dead for the dead ones)',
      },
    },
    async (request) => {
      const { state, limit } = request.query;
      return { deliveries: (await outbox.listDeliveries(state, limit)).map(toDeliveryView) };
    },
  );

  api.route(
    'POST /internal/integration/webhook-deliveries/:eventId/_redeliver',
    {
      docs: {
        tags: ['admin'],
        summary: 'Deliver a dead or delivered event again, with the same webhook-id',
      },
    },
    async (request) => {
      const { eventId } = request.params;
      return deliveries.redeliver(eventId, {
        userId: request.user?.id ?? null,
        email: request.user?.email ?? null,
        origin: requestOrigin(request),
      });
    },
  );

  if (worker) {
    app.addHook('onReady', () => {
      worker.start();
      return Promise.resolve();
    });
    app.addHook('onClose', () => worker.stop());
  }

  function registerApiV1<K extends ApiV1Key>(
    key: K,
    options: RouteOptions,
    handler: RouteHandler<K>,
  ): void {
    api.route(key, options, handler);
  }

  return {
    addJobHooks(hooks) {
      jobHooks.push(hooks);
    },
    registerApiV1,
    apiKeyName,
  };
}
