import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AsyncTask, type TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import { MyTaskList } from '@loopdesk/contracts/routes/async-jobs-drafts.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `PUT …/tasks/{taskId}/draft`: the holder's unsaved edits are kept on the task. */
export async function saveDraft(params: TaskParams, draft: Record<string, unknown>) {
  return callRoute(
    'PUT',
    '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId/draft',
    { params, body: { draft }, schema: AsyncTask },
  );
}

/** `POST …/tasks/{taskId}/_release`: the task goes back to its step, without the draft. */
export async function releaseTask(params: TaskParams): Promise<AsyncTask> {
  return callRoute(
    'POST',
    '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId/_release',
    { params, schema: AsyncTask },
  );
}

/** `GET /internal/async-jobs/tasks/mine` → the tasks the user holds now ("My tasks"). */
export async function getMyTasks(signal?: AbortSignal): Promise<AsyncTask[]> {
  const answer = await callRoute('GET', '/internal/async-jobs/tasks/mine', {
    schema: MyTaskList,
    ...(signal ? { signal } : {}),
  });
  return answer.items;
}

export const MY_TASKS_KEY = ['async-jobs', 'mine'] as const;

export function myTasksQueryOptions() {
  return queryOptions({
    queryKey: MY_TASKS_KEY,
    queryFn: ({ signal }) => getMyTasks(signal),
    refetchInterval: 10_000,
  });
}

export function useMyTasks() {
  return useQuery(myTasksQueryOptions());
}

export function useReleaseTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: releaseTask,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['async-jobs'] });
    },
  });
}
