import { useQuery } from '@tanstack/react-query';
import { ConceptSearchResponse, TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

export type ConditionResult = ConceptSearchResponse['results'][number];

/** `POST /internal/intelligence/ontology/concepts/_search` for conditions only. */
export async function searchConditions(
  query: string,
  signal?: AbortSignal,
): Promise<ConditionResult[]> {
  const answer = await callRoute('POST', '/internal/intelligence/ontology/concepts/_search', {
    body: { query, dataType: ['condition'] },
    schema: ConceptSearchResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.results;
}

/** Conditions matching `text` (3 characters or more, spec 3 §9). */
export function useConditionSearch(text: string) {
  const query = text.trim();
  return useQuery({
    queryKey: ['async-jobs', 'conditions', query],
    queryFn: ({ signal }) => searchConditions(query, signal),
    enabled: query.length >= TYPEAHEAD_MIN_CHARS,
    retry: false,
    staleTime: 60_000,
  });
}
