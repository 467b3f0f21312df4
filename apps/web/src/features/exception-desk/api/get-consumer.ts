import { queryOptions, useQuery } from '@tanstack/react-query';
import { PersonSummary } from '@loopdesk/contracts/conversations.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/consumers/{id}` with the tenant header: the person summary (spec 2 §3). */
export function getConsumer(
  id: string,
  tenant: string,
  signal?: AbortSignal,
): Promise<PersonSummary> {
  return callRoute('GET', '/internal/consumers/:id', {
    params: { id },
    tenantId: tenant,
    schema: PersonSummary,
    ...(signal ? { signal } : {}),
  });
}

export function consumerQueryOptions(id: string, tenant: string) {
  return queryOptions({
    queryKey: ['consumers', tenant, id],
    queryFn: ({ signal }) => getConsumer(id, tenant, signal),
    staleTime: 60_000,
    retry: false,
  });
}

export function useConsumer(id: string, tenant: string) {
  return useQuery(consumerQueryOptions(id, tenant));
}
