import fp from 'fastify-plugin';
import { createApiKeysService } from './api-keys.ts';
import { registerIntegration, type Integration } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The assistant's integration API: other modules check and hear of new jobs
     * (`addJobHooks`) and add `/api/v1` routes behind the same API keys (`registerApiV1`).
     */
    integration: Integration;
  }
}

/**
 * The integration API (issue 6): `/api/v1` for the assistant with API keys (its OpenAPI document is
 * registered by app.ts before every module: modules/integration/openapi.ts),
 * the outbox as a pull feed, the webhook worker, and the admins' API keys and deliveries. New jobs
 * go to the realtime hub for the direct hand-off; job events are modules/jobs' (events.ts).
 * Registered before the modules that add `/api/v1` routes through it.
 */
export default fp(
  async (app) => {
    const { config } = app;
    if (config.devSignIn && config.env.DEMO && config.env.DEMO_API_KEY) {
      // `npm start` hands the demo assistant and the server the same key.
      await createApiKeysService(app.db).ensureKnownKey(config.env.DEMO_API_KEY, 'demo assistant');
    }
    const integration = registerIntegration(app, {
      api: app.api,
      db: app.db,
      bus: app.bus,
      config: app.config,
      dispatcher: app.hub,
    });
    app.decorate('integration', integration);
  },
  { name: 'integration', dependencies: ['platform', 'metrics', 'jobs', 'realtime'] },
);
