import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the async-jobs area. */
export const ASYNC_JOBS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/_add_task',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/_pop',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'DELETE',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/data/concept/_query',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/knowledge/revisions',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: 'issue 7: knowledge-base versions written back by completed tasks',
  },
] as const satisfies readonly ApiRoute[];
