import { queryOptions, useQuery } from '@tanstack/react-query';
import { PipelineList, type Pipeline } from '@loopdesk/contracts/async-jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/async-jobs/pipelines` → the pipeline definitions (spec 3 §7). */
export async function getPipelines(signal?: AbortSignal): Promise<Pipeline[]> {
  const answer = await callRoute('GET', '/internal/async-jobs/pipelines', {
    schema: PipelineList,
    ...(signal ? { signal } : {}),
  });
  return answer.items;
}

export function pipelinesQueryOptions() {
  return queryOptions({
    queryKey: ['async-jobs', 'pipelines'],
    queryFn: ({ signal }) => getPipelines(signal),
    staleTime: 60_000,
  });
}

export function usePipelines() {
  return useQuery(pipelinesQueryOptions());
}
