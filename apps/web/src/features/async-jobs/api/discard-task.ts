import { useMutation } from '@tanstack/react-query';
import type { TaskParams } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

export interface DiscardTaskInput {
  params: TaskParams;
  /** The discard note (required, spec 3 §5). */
  reason: string;
}

/** `DELETE …/tasks/{taskId}?reason=`: the task is discarded with the note. */
export async function discardTask({ params, reason }: DiscardTaskInput): Promise<unknown> {
  return callRoute(
    'DELETE',
    '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    { params, query: { reason } },
  );
}

export function useDiscardTask() {
  return useMutation({ mutationFn: discardTask });
}
