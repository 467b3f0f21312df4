import { useMutation } from '@tanstack/react-query';
import { AsyncTask } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

export interface PopTaskInput {
  pipelineId: string;
  step: string;
}

/** `GET …/pipelines/{id}/steps/{step}/_pop` → the next task, leased to the caller. */
export async function popTask({ pipelineId, step }: PopTaskInput): Promise<AsyncTask> {
  return callRoute('GET', '/internal/async-jobs/pipelines/:pipelineId/steps/:step/_pop', {
    params: { pipelineId, step },
    schema: AsyncTask,
  });
}

export function usePopTask() {
  return useMutation({ mutationFn: popTask });
}
