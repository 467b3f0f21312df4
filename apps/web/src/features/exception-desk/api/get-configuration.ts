import { queryOptions, useQuery } from '@tanstack/react-query';
import { TenantConfiguration } from '@loopdesk/contracts/conversations.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `GET /internal/configurations/{id}` with the tenant header (spec 2 §7): EMR links, timezone. */
export function getConfiguration(
  tenant: string,
  signal?: AbortSignal,
): Promise<TenantConfiguration> {
  return callRoute('GET', '/internal/configurations/:id', {
    params: { id: tenant },
    tenantId: tenant,
    schema: TenantConfiguration,
    ...(signal ? { signal } : {}),
  });
}

export function configurationQueryOptions(tenant: string) {
  return queryOptions({
    queryKey: ['configurations', tenant],
    queryFn: ({ signal }) => getConfiguration(tenant, signal),
    staleTime: 5 * 60_000,
    // A tenant without a configuration simply has no EMR link.
    retry: false,
  });
}

export function useConfiguration(tenant: string) {
  return useQuery(configurationQueryOptions(tenant));
}
