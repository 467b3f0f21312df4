import type { FastifyReply } from 'fastify';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { signedInUser } from '../../platform/auth/guard.ts';
import { errorBody } from '../../platform/errors.ts';
import { AuthoringConflictError, type AuthoringService } from './service.ts';

/** A 409 with the job as it is now (and who holds it): the screen keeps its copy. */
async function answering<T>(
  reply: FastifyReply,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthoringConflictError) {
      return reply.status(409).send({
        ...errorBody(409, error.message),
        current: error.current,
        ...(error.holder ? { holder: error.holder } : {}),
      });
    }
    throw error;
  }
}

/** The `/internal/authoring` routes (packages/contracts/src/routes/authoring.ts). */
export function registerAuthoringRoutes(api: ApiRouter, service: AuthoringService): void {
  api.route('GET /internal/authoring/jobs', async (request) => ({
    items: await service.list(request.query.jobType, signedInUser(request), requestOrigin(request)),
  }));

  api.route('GET /internal/authoring/jobs/:id', async (request) =>
    service.get(request.params.id, signedInUser(request), requestOrigin(request)),
  );

  api.route('POST /internal/authoring/jobs/:id/_take', async (request, reply) =>
    answering(reply, () =>
      service.take(request.params.id, signedInUser(request), requestOrigin(request)),
    ),
  );

  api.route('POST /internal/authoring/jobs/:id/_release', async (request) =>
    service.release(request.params.id, signedInUser(request), requestOrigin(request)),
  );

  api.route('POST /internal/authoring/jobs/:id/draft', async (request, reply) =>
    answering(reply, () =>
      service.saveDraft(
        request.params.id,
        request.body,
        signedInUser(request),
        requestOrigin(request),
      ),
    ),
  );

  api.route('POST /internal/authoring/jobs/:id/submit', async (request, reply) =>
    answering(reply, () =>
      service.submit(
        request.params.id,
        request.body,
        signedInUser(request),
        requestOrigin(request),
      ),
    ),
  );

  api.route('POST /internal/authoring/jobs/:id/review', async (request, reply) =>
    answering(reply, () =>
      service.review(
        request.params.id,
        request.body,
        signedInUser(request),
        requestOrigin(request),
      ),
    ),
  );
}
