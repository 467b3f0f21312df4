import { useQuery } from '@tanstack/react-query';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/analytics/dashboard` (spec 3 §7): the address of the page `/` embeds. It is
 * signed for a few minutes only, so it is asked for on each visit and never reused from cache.
 */
export function useDashboardUrl() {
  return useQuery({
    queryKey: ['analytics', 'dashboard-url'],
    queryFn: ({ signal }) => callRoute('GET', '/internal/analytics/dashboard', { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}
