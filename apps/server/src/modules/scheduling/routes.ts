import type { ApiRouter, ApiV1Registrar } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { SchedulingService } from './service.ts';

/** Physicians and appointments for the portal (spec 3 §7 Scheduling). */
export function registerSchedulingRoutes(api: ApiRouter, service: SchedulingService): void {
  api.route(
    'GET /internal/physicians',
    { docs: { tags: ['scheduling'], summary: 'The physicians an appointment can be with' } },
    async () => ({ items: await service.physicians() }),
  );

  api.route(
    'POST /internal/appointments/_schedule',
    { docs: { tags: ['scheduling'], summary: 'Schedule an appointment (spec 3 §3 Appointment)' } },
    async (request, reply) => {
      if (!request.user) {
        throw unauthorized('Sign in first.');
      }
      const appointment = await service.schedule(
        request.body,
        request.user,
        requestOrigin(request),
      );
      return reply.status(201).send(appointment);
    },
  );

  api.route(
    'GET /internal/experiment/appointments/_summary',
    {
      docs: {
        tags: ['scheduling'],
        summary:
          'Appointments scheduled, newest first (conversationId= narrows them; upcoming=true: those not started, soonest first)',
      },
    },
    async (request) => {
      if (!request.user) {
        throw unauthorized('Sign in first.');
      }
      const { query } = request;
      return service.summary(
        { conversationId: query.conversationId, limit: query.s, upcoming: query.upcoming },
        request.user,
        requestOrigin(request),
      );
    },
  );
}

/** The assistant keeps the physician directory in step: `PUT /api/v1/physicians/{id}`. */
export function registerPhysicianApi(v1: ApiV1Registrar, service: SchedulingService): void {
  v1.registerApiV1(
    'PUT /api/v1/physicians/:id',
    {
      docs: {
        tags: ['scheduling'],
        summary: 'Register or update a physician (active: false takes them off the list)',
      },
    },
    async (request) =>
      service.putPhysician(
        request.params.id,
        request.body,
        v1.apiKeyName(request),
        requestOrigin(request),
      ),
  );
}
