import { z } from 'zod';
import { any, NoBody, type ApiRoute } from './api-route.ts';
import { AsyncTask, TaskParams } from '../async-jobs.ts';
import { errorResponses } from '../errors.ts';

/**
 * The holder's unsaved edits of a task screen (issue 20 point 17): one value per screen field,
 * as the screen wrote it. Kept on the held task until it is submitted, discarded or released.
 */
export const TaskDraftBody = z.object({
  draft: z.record(z.string(), z.unknown(), { error: 'The draft must be an object of fields.' }),
});
export type TaskDraftBody = z.infer<typeof TaskDraftBody>;

/** The tasks the caller holds now ("My tasks"), oldest taken first. */
export const MyTaskList = z.object({ items: z.array(AsyncTask) });
export type MyTaskList = z.infer<typeof MyTaskList>;

/** Drafts, "My tasks" and release: work is never lost (issue 20 point 17). */
export const ASYNC_JOBS_DRAFT_ROUTES = [
  {
    method: 'GET',
    path: '/internal/async-jobs/tasks/mine',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: 'issue 20 point 17: the tasks the caller holds ("My tasks")',
    response: { 200: MyTaskList },
  },
  {
    method: 'PUT',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId/draft',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: 'issue 20 point 17: the holder keeps unsaved edits as a draft on the task',
    params: TaskParams,
    body: TaskDraftBody,
    // 409: the task is held by someone else, or no longer open.
    response: { 200: AsyncTask, ...errorResponses([409]) },
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId/_release',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    patientData: 'none',
    spec: 'issue 20 point 17: the holder gives a task back to its step (the draft is dropped)',
    params: TaskParams,
    body: NoBody,
    // 409: the task is held by someone else, or no longer open.
    response: { 200: AsyncTask, ...errorResponses([409]) },
  },
] as const satisfies readonly ApiRoute[];
