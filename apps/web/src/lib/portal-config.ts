import { queryOptions, useQuery } from '@tanstack/react-query';
import { PortalConfig } from '@loopdesk/contracts/users.ts';
import { apiRequest } from './api-client.ts';

/** `GET /portal-config` (no auth): environment, version and the configurable links. */
export function getPortalConfig(signal?: AbortSignal): Promise<PortalConfig> {
  return apiRequest('/portal-config', {
    auth: false,
    schema: PortalConfig,
    ...(signal ? { signal } : {}),
  });
}

export function portalConfigQueryOptions() {
  return queryOptions({
    queryKey: ['portal-config'],
    queryFn: ({ signal }) => getPortalConfig(signal),
    staleTime: Infinity,
  });
}

export function usePortalConfig() {
  return useQuery(portalConfigQueryOptions());
}
