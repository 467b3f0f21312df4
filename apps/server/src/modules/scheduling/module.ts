import fp from 'fastify-plugin';
import { registerPhysicianApi, registerSchedulingRoutes } from './routes.ts';
import { createSchedulingService, type SchedulingService } from './service.ts';

/** What the scheduling module gives the modules above it. */
export interface Scheduling {
  readonly service: SchedulingService;
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduling: Scheduling;
  }
}

/** Physicians and appointments (spec 3 §7 Scheduling), for conversations of the desk. */
export default fp(
  (app) => {
    const service = createSchedulingService(app.db);
    registerSchedulingRoutes(app.api, service);
    // The assistant's `PUT /api/v1/physicians/{id}`, behind the integration API's keys.
    registerPhysicianApi(app.integration, service);
    app.decorate('scheduling', { service } satisfies Scheduling);
    return Promise.resolve();
  },
  { name: 'scheduling', dependencies: ['platform', 'integration', 'conversations'] },
);
