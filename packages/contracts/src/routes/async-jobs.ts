import { errorResponses } from '../errors.ts';
import { any, NoBody, type ApiRoute } from './api-route.ts';
import {
  AddTaskBody,
  AsyncTask,
  DiscardTaskQuery,
  PipelineList,
  PipelineParams,
  PipelineWithStats,
  StepParams,
  SubmitTaskBody,
  TaskParams,
} from '../async-jobs.ts';
import { KnowledgeRevisionList } from '../knowledge-revisions.ts';
import { ConceptQuery, ConceptQueryResponse } from '../intelligence.ts';
import { ASYNC_JOBS_DRAFT_ROUTES } from './async-jobs-drafts.ts';

/** The `/internal` routes of the async-jobs area. */
export const ASYNC_JOBS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    response: { 200: PipelineList },
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    params: PipelineParams,
    response: { 200: PipelineWithStats },
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/_add_task',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    params: PipelineParams,
    body: AddTaskBody,
    response: { 201: AsyncTask },
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/_pop',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    params: StepParams,
    response: { 200: AsyncTask },
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    params: TaskParams,
    response: { 200: AsyncTask },
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    params: TaskParams,
    body: SubmitTaskBody,
    // 409: the task is held by someone else, or no longer open.
    response: { 200: AsyncTask, ...errorResponses([409]) },
  },
  {
    method: 'DELETE',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    params: TaskParams,
    query: DiscardTaskQuery,
    body: NoBody,
    // 409: the task is held by someone else, or no longer open.
    response: { 200: AsyncTask, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/data/concept/_query',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: '3 §7',
    query: ConceptQuery,
    // 503: concept search of a large knowledge base failed to build (issue 22).
    response: { 200: ConceptQueryResponse, ...errorResponses([503]) },
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/knowledge/revisions',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: 'issue 7: knowledge-base versions written back by completed tasks',
    response: { 200: KnowledgeRevisionList },
  },
  ...ASYNC_JOBS_DRAFT_ROUTES,
] as const satisfies readonly ApiRoute[];
