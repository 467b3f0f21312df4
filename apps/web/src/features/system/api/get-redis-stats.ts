import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RedisStatsResponse } from '@loopdesk/contracts/system.ts';
import { callRoute } from '../../../lib/api-client.ts';

export interface RedisPage {
  readonly cursor: string;
  readonly match: string;
}

/** Keys a page of the dashboard asks for. */
export const REDIS_PAGE_SIZE = 100;

/** `GET /internal/sysadmin/redis/_stats` (spec 3 §7), a page of keys at a time. */
export function getRedisStats(page: RedisPage, signal?: AbortSignal): Promise<RedisStatsResponse> {
  return callRoute('GET', '/internal/sysadmin/redis/_stats', {
    query: { cursor: page.cursor, count: REDIS_PAGE_SIZE, match: page.match.trim() || undefined },
    ...(signal ? { signal } : {}),
  });
}

export function redisStatsQueryOptions(page: RedisPage) {
  return queryOptions({
    queryKey: ['system', 'redis', page],
    queryFn: ({ signal }) => getRedisStats(page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useRedisStats(page: RedisPage) {
  return useQuery(redisStatsQueryOptions(page));
}
