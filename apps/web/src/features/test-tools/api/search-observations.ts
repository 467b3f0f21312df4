import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  ConceptSearchResponse,
  TYPEAHEAD_MIN_CHARS,
  type ConceptClass,
} from '@loopdesk/contracts/intelligence.ts';
import { useCallback } from 'react';
import { callRoute } from '../../../lib/api-client.ts';

/** An observation the differential knows (spec 3 §3 "Observation option: name"). */
export interface ObservationOption {
  name: string;
}

/** At most this many options are offered at once. */
export const MAX_OBSERVATION_OPTIONS = 20;

/** What the differential takes: observations (signs and symptoms too) and risk factors. */
const OBSERVATION_CLASSES: ConceptClass[] = ['observation', 'epidemiologicalFactor'];

/**
 * `POST /internal/intelligence/ontology/concepts/_search` `{ query, dataType }` → the observations
 * whose name or alias matches the text, ranked and typo-tolerant ('tummy ache' finds abdominal
 * pain), by canonical name: the name the differential takes.
 */
export async function searchObservations(
  text: string,
  signal?: AbortSignal,
): Promise<ObservationOption[]> {
  const answer = await callRoute('POST', '/internal/intelligence/ontology/concepts/_search', {
    body: { query: text.trim(), dataType: OBSERVATION_CLASSES, limit: MAX_OBSERVATION_OPTIONS },
    schema: ConceptSearchResponse,
    ...(signal ? { signal } : {}),
  });
  const names = [...new Set(answer.results.map((result) => result.canonicalName))];
  return names.map((name) => ({ name }));
}

export function searchObservationsQueryOptions(text: string) {
  return queryOptions({
    queryKey: ['clinical-inference', 'observations', text.trim().toLowerCase()],
    queryFn: ({ signal }) => searchObservations(text, signal),
    // The knowledge base changes rarely; a minute of cache answers a retyped text at once.
    staleTime: 60_000,
    // A failure is shown at once ('Service unavailable'); the next typed character asks again.
    retry: false,
  });
}

/**
 * Looks up the observations for a typed text (spec 3 §4): asked on each change of
 * TYPEAHEAD_MIN_CHARS or more characters; shorter text gives none.
 */
export function useObservationLookup(): (text: string) => Promise<ObservationOption[]> {
  const queryClient = useQueryClient();
  return useCallback(
    async (text: string) => {
      if (text.trim().length < TYPEAHEAD_MIN_CHARS) {
        return [];
      }
      return queryClient.fetchQuery(searchObservationsQueryOptions(text));
    },
    [queryClient],
  );
}
