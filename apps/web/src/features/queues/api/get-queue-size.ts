import { queryOptions, useQuery } from '@tanstack/react-query';
import { QUEUE_SIZE_POLL_MS } from '@loopdesk/contracts/portal-routes.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** The queues whose sizes every signed-in portal polls for the bell (spec 1 §7). */
export type QueueName = 'federated' | 'exceptions' | 'hpi-summarisation';

function isSizeAnswer(value: unknown): value is { size: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { size?: unknown }).size === 'number' &&
    Number.isFinite((value as { size: number }).size)
  );
}

/**
 * `GET /internal/queues/{queue}/_size` → `{ size }`. Anything but a 200 with a numeric size is a
 * failure, which the bell shows as 'unknown' (spec 1 §8).
 */
export async function getQueueSize(queue: QueueName, signal?: AbortSignal): Promise<number> {
  const answer = await callRoute('GET', `/internal/queues/${queue}/_size`, {
    expectStatus: 200,
    ...(signal ? { signal } : {}),
  });
  if (!isSizeAnswer(answer)) {
    throw new Error(`The ${queue} queue size answer has no size.`);
  }
  return answer.size;
}

export function queueSizeQueryOptions(queue: QueueName) {
  return queryOptions({
    queryKey: ['queues', queue, 'size'],
    queryFn: ({ signal }) => getQueueSize(queue, signal),
    refetchInterval: QUEUE_SIZE_POLL_MS,
    // A failure shows 'unknown' at once; the next poll tries again.
    retry: false,
  });
}

/** The size of one queue, polled every QUEUE_SIZE_POLL_MS. */
export function useQueueSize(queue: QueueName) {
  return useQuery(queueSizeQueryOptions(queue));
}
