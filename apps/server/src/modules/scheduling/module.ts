import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { registerPhysicianApi, registerSchedulingRoutes } from './routes.ts';
import { createSchedulingService, type SchedulingService } from './service.ts';

/** What the scheduling module gives the modules above it. */
export interface Scheduling {
  readonly service: SchedulingService;
  /** Registers the assistant's `PUT /api/v1/physicians/{id}` in the integration API's scope. */
  registerV1(v1: FastifyInstance, apiKeyName: (request: FastifyRequest) => string): void;
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
    app.decorate('scheduling', {
      service,
      registerV1: (v1, apiKeyName) => registerPhysicianApi(v1, { service, apiKeyName }),
    } satisfies Scheduling);
    return Promise.resolve();
  },
  { name: 'scheduling', dependencies: ['platform', 'conversations'] },
);
