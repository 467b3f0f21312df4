/** The route of a taken task. */
export function taskPath(pipelineId: string | number, step: string, taskId: string): string {
  return `/jobs/async/pipelines/${pipelineId}/steps/${encodeURIComponent(step)}/tasks/${encodeURIComponent(taskId)}`;
}
