import { useQuery } from '@tanstack/react-query';
import {
  TYPEAHEAD_MIN_CHARS,
  TypeaheadResponse,
  type TypeaheadResult,
} from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../lib/api-client.ts';

/** Spec 1 §8: shown when the concept typeahead fails. */
export const TYPEAHEAD_ERROR_MESSAGE = 'Error loading normalised concepts';

/** `GET /internal/utilities/typeahead?t=&type=concept` → the matching concepts (spec 1 §7). */
export async function getConcepts(t: string, signal?: AbortSignal): Promise<TypeaheadResult[]> {
  const answer = await callRoute('GET', '/internal/utilities/typeahead', {
    query: { t, type: 'concept' },
    schema: TypeaheadResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.results;
}

/** The concepts matching `text`; nothing is asked below 3 characters (spec 1 §5). */
export function useConceptTypeahead(text: string) {
  const t = text.trim();
  return useQuery({
    queryKey: ['typeahead', 'concept', t],
    queryFn: ({ signal }) => getConcepts(t, signal),
    enabled: t.length >= TYPEAHEAD_MIN_CHARS,
    retry: false,
    staleTime: 60_000,
  });
}
