import { queryOptions, useQueries } from '@tanstack/react-query';
import { PipelineWithStats } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** Spec 3 §9: the dashboard's stats are polled every 10 seconds. */
export const STATS_POLL_MS = 10_000;

/** `GET /internal/async-jobs/pipelines/{id}` → the pipeline with its per-step stats. */
export async function getPipeline(
  pipelineId: string,
  signal?: AbortSignal,
): Promise<PipelineWithStats> {
  return callRoute('GET', '/internal/async-jobs/pipelines/:pipelineId', {
    params: { pipelineId },
    schema: PipelineWithStats,
    ...(signal ? { signal } : {}),
  });
}

export function pipelineQueryOptions(pipelineId: string) {
  return queryOptions({
    queryKey: ['async-jobs', 'pipelines', pipelineId],
    queryFn: ({ signal }) => getPipeline(pipelineId, signal),
    refetchInterval: STATS_POLL_MS,
  });
}

/** The stats of every pipeline, polled; index i answers `pipelineIds[i]`. */
export function usePipelineStats(pipelineIds: readonly string[]) {
  return useQueries({ queries: pipelineIds.map((id) => pipelineQueryOptions(id)) });
}

/** The free jobs of `step` in the stats (0 when the step is not listed). */
export function jobsOf(stats: PipelineWithStats | undefined, step: string): number | undefined {
  if (!stats) {
    return undefined;
  }
  for (const entry of stats.stats.steps) {
    const found = entry[step];
    if (found) {
      return found.jobs;
    }
  }
  return 0;
}
