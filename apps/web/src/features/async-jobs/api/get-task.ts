import { queryOptions, useQuery } from '@tanstack/react-query';
import { AsyncTask, type TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET …/pipelines/{id}/steps/{step}/tasks/{taskId}` → the task. */
export async function getTask(params: TaskParams, signal?: AbortSignal): Promise<AsyncTask> {
  return callRoute('GET', '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId', {
    params,
    schema: AsyncTask,
    ...(signal ? { signal } : {}),
  });
}

export function taskQueryOptions(params: TaskParams) {
  return queryOptions({
    queryKey: ['async-jobs', 'task', params.pipelineId, params.step, params.taskId],
    queryFn: ({ signal }) => getTask(params, signal),
    // The screen holds the user's edits: never reload the task under them.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function useTask(params: TaskParams) {
  return useQuery(taskQueryOptions(params));
}
