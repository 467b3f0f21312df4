import { queryOptions, useQuery } from '@tanstack/react-query';
import { QueueSize } from '@loopdesk/contracts/jobs.ts';
import { QUEUE_SIZE_POLL_MS } from '@loopdesk/contracts/portal-routes.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/queues/hpi-summarisation/_size` → the number of summary jobs waiting, polled
 * every 5 s (spec 2 §9). The bell reads the same query (same key), so the two share each answer.
 */
export async function getSummaryQueueSize(signal?: AbortSignal): Promise<number> {
  const answer = await callRoute('GET', '/internal/queues/hpi-summarisation/_size', {
    expectStatus: 200,
    schema: QueueSize,
    ...(signal ? { signal } : {}),
  });
  return answer.size;
}

export function summaryQueueSizeQueryOptions() {
  return queryOptions({
    queryKey: ['queues', 'hpi-summarisation', 'size'],
    queryFn: ({ signal }) => getSummaryQueueSize(signal),
    refetchInterval: QUEUE_SIZE_POLL_MS,
    // A failure shows 'unknown' at once (spec 1 §8); the next poll tries again.
    retry: false,
  });
}

export function useSummaryQueueSize() {
  return useQuery(summaryQueueSizeQueryOptions());
}
