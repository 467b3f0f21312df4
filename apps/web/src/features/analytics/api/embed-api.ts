import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  AnalyticsFigures,
  EmbedOpenResponse,
  type AnalyticsFilters,
} from '@loopdesk/contracts/analytics.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The built-in analytics page's calls: it has no portal session (it lives in a frame), so it
 * opens with the signed address's token and reads with the view token it gets back.
 */
export function openEmbed(token: string): Promise<EmbedOpenResponse> {
  return apiRequest('/internal/analytics/embed/_open', {
    auth: false,
    query: { token },
    schema: EmbedOpenResponse,
  });
}

export function getFigures(
  viewToken: string,
  filters: AnalyticsFilters,
  signal?: AbortSignal,
): Promise<AnalyticsFigures> {
  return apiRequest('/internal/analytics/embed/figures', {
    auth: false,
    query: { ...filters },
    headers: { 'X-Analytics-View': viewToken },
    schema: AnalyticsFigures,
    ...(signal ? { signal } : {}),
  });
}

export function useOpenEmbed(token: string | null) {
  return useQuery({
    queryKey: ['analytics', 'open', token],
    queryFn: () => {
      if (!token) {
        throw new Error("This page opens from the portal's dashboard: its address has no token.");
      }
      return openEmbed(token);
    },
    staleTime: Infinity,
    retry: false,
  });
}

/** The figures for these filters; the previous ones stay on screen while new ones load. */
export function useFigures(viewToken: string | undefined, filters: AnalyticsFilters) {
  return useQuery({
    queryKey: ['analytics', 'figures', filters],
    queryFn: ({ signal }) => getFigures(viewToken ?? '', filters, signal),
    enabled: Boolean(viewToken),
    placeholderData: keepPreviousData,
    retry: false,
    refetchInterval: 60_000,
  });
}
