import { queryOptions, useQuery } from '@tanstack/react-query';
import { Subgraph, VERTEX_CLASSES } from '@loopdesk/contracts/intelligence.ts';
import { fillPath } from '@loopdesk/contracts/routes.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const SUBGRAPH_PATH = '/internal/intelligence/ontology/models/:model/:id/_subgraph';

/**
 * `GET /internal/intelligence/ontology/models/conditions/{id}/_subgraph?classExtensions=…` with
 * one classExtensions per vertex class of spec 3 §3 → `{ vertexes, edges }`. The parameter
 * repeats, which the client's `query` (one value per key) cannot say, so the query is built here.
 */
export function getConditionSubgraph(id: string, signal?: AbortSignal): Promise<Subgraph> {
  const search = new URLSearchParams();
  for (const vertexClass of VERTEX_CLASSES) {
    search.append('classExtensions', vertexClass);
  }
  const path = `${fillPath(SUBGRAPH_PATH, { model: 'conditions', id })}?${search.toString()}`;
  return apiRequest(path, { schema: Subgraph, ...(signal ? { signal } : {}) });
}

export function conditionSubgraphQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['ontology', 'models', 'conditions', id, 'subgraph'],
    queryFn: ({ signal }) => getConditionSubgraph(id, signal),
    staleTime: 5 * 60_000,
  });
}

/** The knowledge graph around a condition; nothing is asked while `id` is null. */
export function useConditionSubgraph(id: string | null) {
  return useQuery({
    ...conditionSubgraphQueryOptions(id ?? ''),
    enabled: id !== null,
  });
}
