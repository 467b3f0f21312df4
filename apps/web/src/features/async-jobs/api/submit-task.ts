import { useMutation } from '@tanstack/react-query';
import type { TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

export interface SubmitTaskInput {
  params: TaskParams;
  data: unknown;
}

/** `POST …/tasks/{taskId}` with `{ id, data }`: the step's work is done. */
export async function submitTask({ params, data }: SubmitTaskInput): Promise<unknown> {
  return callRoute('POST', '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId', {
    params,
    body: { id: params.taskId, data },
  });
}

export function useSubmitTask() {
  return useMutation({ mutationFn: submitTask });
}
