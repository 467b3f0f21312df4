import { queryOptions, useQuery } from '@tanstack/react-query';
import { ModelItems } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** A condition of the ontology (spec 3 §3 "condition model {bid, display}"). */
export interface ConditionModel {
  bid: string;
  display: string;
}

/** By display name, case-insensitively (spec 3 §2: the dropdown is sorted by display name). */
export function sortByDisplay(items: readonly ConditionModel[]): ConditionModel[] {
  return [...items].sort((a, b) =>
    a.display.localeCompare(b.display, undefined, { sensitivity: 'base' }),
  );
}

/** `GET /internal/intelligence/ontology/models/conditions` → the conditions, sorted by display. */
export async function getConditions(signal?: AbortSignal): Promise<ConditionModel[]> {
  const answer = await callRoute('GET', '/internal/intelligence/ontology/models/:modelName', {
    params: { modelName: 'conditions' },
    schema: ModelItems,
    ...(signal ? { signal } : {}),
  });
  return sortByDisplay(answer.items);
}

export function conditionsQueryOptions() {
  return queryOptions({
    queryKey: ['ontology', 'models', 'conditions'],
    queryFn: ({ signal }) => getConditions(signal),
    staleTime: 5 * 60_000,
  });
}

/** The conditions of the knowledge graph, sorted by display name. */
export function useConditions() {
  return useQuery(conditionsQueryOptions());
}
