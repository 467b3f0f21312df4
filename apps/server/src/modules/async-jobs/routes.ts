import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { signedInUser } from '../../platform/auth/guard.ts';
import type { KnowledgeRevisions } from '../knowledge/revisions.ts';
import type { DraftService } from './drafts.ts';
import type { AsyncJobsService } from './service.ts';

/** `/internal/async-jobs`: pipelines, stats, add, pop, read, submit and discard (spec 3 §7). */
export function registerAsyncJobsRoutes(
  api: ApiRouter,
  service: AsyncJobsService,
  revisions: KnowledgeRevisions,
  drafts: DraftService,
): void {
  api.route('GET /internal/async-jobs/pipelines', () => ({ items: service.list() }));

  api.route('GET /internal/async-jobs/pipelines/:pipelineId', async (request) =>
    service.withStats(request.params.pipelineId),
  );

  api.route('POST /internal/async-jobs/pipelines/:pipelineId/_add_task', async (request, reply) => {
    const task = await service.addTask(
      request.params.pipelineId,
      request.body,
      signedInUser(request),
      requestOrigin(request),
    );
    return reply.status(201).send(task);
  });

  api.route('GET /internal/async-jobs/pipelines/:pipelineId/steps/:step/_pop', async (request) => {
    const { pipelineId, step } = request.params;
    return service.pop(pipelineId, step, signedInUser(request));
  });

  api.route(
    'GET /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    async (request) => service.get(request.params),
  );

  api.route(
    'POST /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    async (request) =>
      service.submit(request.params, request.body, signedInUser(request), requestOrigin(request)),
  );

  api.route(
    'DELETE /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    async (request) =>
      service.discard(
        request.params,
        request.query.reason,
        signedInUser(request),
        requestOrigin(request),
      ),
  );

  api.route('GET /internal/async-jobs/knowledge/revisions', async () => revisions.list());

  api.route('GET /internal/async-jobs/tasks/mine', async (request) => ({
    items: await drafts.mine(signedInUser(request), requestOrigin(request)),
  }));

  api.route(
    'PUT /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId/draft',
    async (request) =>
      drafts.saveDraft(
        request.params,
        request.body.draft,
        signedInUser(request),
        requestOrigin(request),
      ),
  );

  api.route(
    'POST /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId/_release',
    async (request) =>
      drafts.release(request.params, signedInUser(request), requestOrigin(request)),
  );
}
