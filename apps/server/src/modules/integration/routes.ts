import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@loopdesk/contracts/errors.ts';
import {
  CreateJobBody,
  CreateJobHeaders,
  EventFeed,
  EventsQuery,
  JobIdParams,
  JobView,
} from '@loopdesk/contracts/integration.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { unauthorized } from '../../platform/errors.ts';
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

const apiKeySecurity = [{ apiKey: [] }];

/** Routes another module adds under `/api/v1`, behind the same API keys. */
export type ApiV1Routes = (
  v1: FastifyInstance,
  apiKeyName: (request: FastifyRequest) => string,
) => void;

/** What the integration API lends other modules. */
export interface Integration {
  /** Checks each new job inside its transaction, and hears of it after commit (issue 5 tasks). */
  addJobHooks(hooks: JobHooks): void;
  /** Registers further `/api/v1` routes (e.g. the exception desk's conversations). */
  registerApiV1(routes: ApiV1Routes): Promise<void>;
}

/**
 * The assistant's integration API (issue 6): `/api/v1` guarded by API keys,
 * the admin routes of the route table, and the webhook worker when ASSISTANT_WEBHOOK_URL is set.
 */
export async function registerIntegration(
  app: FastifyInstance,
  deps: {
    api: ApiRouter;
    db: Database;
    bus: Bus;
    config: Config;
    /** The realtime hub: new jobs go straight to waiting technicians (the direct hand-off). */
    dispatcher?: Pick<RealtimeHub, 'enqueue' | 'announce'>;
  },
): Promise<Integration> {
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
  const apiKeys = createApiKeysService(db);
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
  /** An `/api/v1` scope: every request carries its API key, read before the body is parsed. */
  const apiKeyScope = (plugin: FastifyInstance) => {
    const v1 = plugin.withTypeProvider<ZodTypeProvider>();
    // Before the body is parsed: a stranger learns nothing about the schemas.
    v1.addHook('onRequest', async (request) => {
      request.apiKey = await apiKeys.authenticate(request.headers.authorization);
    });
    return v1;
  };

  // ------------------------------------------------------------------ /api/v1 (API keys)
  await app.register(
    (plugin) => {
      const v1 = apiKeyScope(plugin);

      v1.post(
        '/jobs',
        {
          schema: {
            tags: ['jobs'],
            summary: 'Create a job (idempotent by the Idempotency-Key header)',
            security: apiKeySecurity,
            headers: CreateJobHeaders,
            body: CreateJobBody,
            // 400, 401, 413, 415, 429 and 500 are every /api/v1 route's (declared-responses.ts).
            // 404: an exceptions task for a conversation Loopdesk does not know.
            response: { 200: JobView, 201: JobView, ...errorResponses([404, 409]) },
          },
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

      v1.get(
        '/jobs/:id',
        {
          schema: {
            tags: ['jobs'],
            summary: 'Read a job, with its result once completed',
            security: apiKeySecurity,
            params: JobIdParams,
            response: { 200: JobView, ...errorResponses([404]) },
          },
        },
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
              details: { apiKey: keyOf(request.apiKey).name },
            },
            requestOrigin(request),
          );
          return toJobView(job);
        },
      );

      v1.post(
        '/jobs/:id/cancel',
        {
          schema: {
            tags: ['jobs'],
            summary: 'Cancel a queued or assigned job',
            security: apiKeySecurity,
            params: JobIdParams,
            response: { 200: JobView, ...errorResponses([404, 409]) },
          },
        },
        async (request) =>
          toJobView(
            await service.cancel(request.params.id, keyOf(request.apiKey), requestOrigin(request)),
          ),
      );

      v1.get(
        '/events',
        {
          schema: {
            tags: ['events'],
            summary: 'The outbox as a pull feed, oldest first, after a cursor',
            security: apiKeySecurity,
            querystring: EventsQuery,
            response: { 200: EventFeed },
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
                  apiKey: keyOf(request.apiKey).name,
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
      return Promise.resolve();
    },
    { prefix: '/api/v1' },
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

  return {
    addJobHooks(hooks) {
      jobHooks.push(hooks);
    },
    async registerApiV1(routes) {
      await app.register(
        (plugin) => {
          routes(apiKeyScope(plugin), (request) => keyOf(request.apiKey).name);
          return Promise.resolve();
        },
        { prefix: '/api/v1' },
      );
    },
  };
}
