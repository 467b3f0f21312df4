import { useMutation } from '@tanstack/react-query';
import { AsyncTask, type AddTaskBody } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

export interface AddTaskInput {
  pipelineId: string;
  body: AddTaskBody;
}

/** `POST …/pipelines/{id}/_add_task` → the new task (pipelines 3 and 4 only). */
export async function addTask({ pipelineId, body }: AddTaskInput): Promise<AsyncTask> {
  return callRoute('POST', '/internal/async-jobs/pipelines/:pipelineId/_add_task', {
    params: { pipelineId },
    body,
    schema: AsyncTask,
  });
}

export function useAddTask() {
  return useMutation({ mutationFn: addTask });
}
