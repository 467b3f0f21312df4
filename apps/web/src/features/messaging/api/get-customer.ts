import { useQuery } from '@tanstack/react-query';
import type { ConsumerView } from '@loopdesk/contracts/conversations.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/consumers/{id}?o=full`: the customer's email and tenant for the thread header. */
export function getCustomer(id: string, signal?: AbortSignal): Promise<ConsumerView> {
  return callRoute('GET', '/internal/consumers/:id', {
    params: { id },
    query: { o: 'full' },
    ...(signal ? { signal } : {}),
  });
}

export function useCustomer(id: string | null) {
  return useQuery({
    queryKey: ['messaging', 'customers', id],
    queryFn: ({ signal }) => getCustomer(id ?? '', signal),
    enabled: id !== null,
    staleTime: 60_000,
    retry: false,
  });
}
