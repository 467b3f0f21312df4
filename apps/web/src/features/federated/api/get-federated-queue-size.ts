import { useQuery } from '@tanstack/react-query';
import { QUEUE_SIZE_POLL_MS } from '@loopdesk/contracts/portal-routes.ts';
import { QueueSize } from '@loopdesk/contracts/jobs.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/queues/federated/_size`, polled every QUEUE_SIZE_POLL_MS under the bell's query
 * key (one request for both): the federated screen's idle state says how many jobs wait.
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
    refetchInterval: QUEUE_SIZE_POLL_MS,
    retry: false,
  });
  return query.isSuccess ? query.data : null;
}
