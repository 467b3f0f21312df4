import { queryOptions, useQuery } from '@tanstack/react-query';
import { PhysiciansResponse } from '@loopdesk/contracts/scheduling.ts';
import { callRoute } from '../../lib/api-client.ts';

/** `GET /internal/physicians` → items (spec 3 §7 Scheduling). */
export function getPhysicians(signal?: AbortSignal): Promise<PhysiciansResponse> {
  return callRoute('GET', '/internal/physicians', {
    schema: PhysiciansResponse,
    ...(signal ? { signal } : {}),
  });
}

export function physiciansQueryOptions() {
  return queryOptions({
    queryKey: ['physicians'],
    queryFn: ({ signal }) => getPhysicians(signal),
    staleTime: 5 * 60_000,
  });
}

export function usePhysicians(enabled = true) {
  return useQuery({ ...physiciansQueryOptions(), enabled });
}
