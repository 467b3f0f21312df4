import { useQuery } from '@tanstack/react-query';
import { QueueSize } from '@loopdesk/contracts/jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/queues/federated/_size` under the bell's query key: the federated screen's idle
 * state says how many jobs wait. The bell (always there for a user who may open this screen)
 * polls it every QUEUE_SIZE_POLL_MS; this observer only reads what the bell fetched, fetching once
 * itself when nothing is cached, so that the screen adds no second poll (each observer with an
 * interval would run its own timer).
 */
export function useFederatedQueueSize(): number | null {
  const query = useQuery({
    queryKey: ['queues', 'federated', 'size'],
    queryFn: async ({ signal }) =>
      (
        await callRoute('GET', '/internal/queues/federated/_size', {
          schema: QueueSize,
          expectStatus: 200,
          signal,
        })
      ).size,
    refetchInterval: false,
    staleTime: Infinity,
    retry: false,
  });
  return query.isSuccess ? query.data : null;
}
