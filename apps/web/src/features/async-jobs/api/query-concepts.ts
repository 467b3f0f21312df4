import { useQuery } from '@tanstack/react-query';
import { ConceptQueryResponse, TYPEAHEAD_MIN_CHARS } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

export type QueriedConcept = ConceptQueryResponse['results'][number];

/** `GET /internal/async-jobs/data/concept/_query?q=` → concepts with their aliases. */
export async function queryConcepts(q: string, signal?: AbortSignal): Promise<QueriedConcept[]> {
  const answer = await callRoute('GET', '/internal/async-jobs/data/concept/_query', {
    query: { q },
    schema: ConceptQueryResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.results;
}

/** Concepts matching `text`; nothing is asked below 3 characters (spec 3 §9). */
export function useConceptQuery(text: string) {
  const q = text.trim();
  return useQuery({
    queryKey: ['async-jobs', 'concept-query', q],
    queryFn: ({ signal }) => queryConcepts(q, signal),
    enabled: q.length >= TYPEAHEAD_MIN_CHARS,
    retry: false,
    staleTime: 60_000,
  });
}
