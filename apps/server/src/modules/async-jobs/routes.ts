import type { FastifyRequest } from 'fastify';
import {
  AddTaskBody,
  AsyncTask,
  DiscardTaskQuery,
  KnowledgeRevisionList,
  PipelineList,
  PipelineParams,
  PipelineWithStats,
  StepParams,
  SubmitTaskBody,
  TaskParams,
} from '@loopdesk/contracts/async-jobs.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { KnowledgeRevisions } from '../knowledge/revisions.ts';
import type { AsyncJobsService } from './service.ts';

const userOf = (request: FastifyRequest): RequestUser => {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
};

/** `/internal/async-jobs`: pipelines, stats, add, pop, read, submit and discard (spec 3 §7). */
export function registerAsyncJobsRoutes(
  api: ApiRouter,
  service: AsyncJobsService,
  revisions: KnowledgeRevisions,
): void {
  api.route(
    'GET /internal/async-jobs/pipelines',
    { schema: { response: { 200: PipelineList } } },
    () => ({ items: service.list() }),
  );

  api.route(
    'GET /internal/async-jobs/pipelines/:pipelineId',
    { schema: { params: PipelineParams, response: { 200: PipelineWithStats } } },
    async (request) => service.withStats((request.params as PipelineParams).pipelineId),
  );

  api.route(
    'POST /internal/async-jobs/pipelines/:pipelineId/_add_task',
    { schema: { params: PipelineParams, body: AddTaskBody, response: { 201: AsyncTask } } },
    async (request, reply) => {
      const task = await service.addTask(
        (request.params as PipelineParams).pipelineId,
        request.body as AddTaskBody,
        userOf(request),
        requestOrigin(request),
      );
      return reply.status(201).send(task);
    },
  );

  api.route(
    'GET /internal/async-jobs/pipelines/:pipelineId/steps/:step/_pop',
    { schema: { params: StepParams, response: { 200: AsyncTask } } },
    async (request) => {
      const { pipelineId, step } = request.params as StepParams;
      return service.pop(pipelineId, step, userOf(request));
    },
  );

  api.route(
    'GET /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    { schema: { params: TaskParams, response: { 200: AsyncTask } } },
    async (request) => service.get(request.params as TaskParams),
  );

  api.route(
    'POST /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    { schema: { params: TaskParams, body: SubmitTaskBody, response: { 200: AsyncTask } } },
    async (request) =>
      service.submit(
        request.params as TaskParams,
        request.body as SubmitTaskBody,
        userOf(request),
        requestOrigin(request),
      ),
  );

  api.route(
    'DELETE /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    { schema: { params: TaskParams, querystring: DiscardTaskQuery, response: { 200: AsyncTask } } },
    async (request) =>
      service.discard(
        request.params as TaskParams,
        (request.query as { reason?: string }).reason,
        userOf(request),
        requestOrigin(request),
      ),
  );

  api.route(
    'GET /internal/async-jobs/knowledge/revisions',
    { schema: { response: { 200: KnowledgeRevisionList } } },
    async () => revisions.list(),
  );
}
