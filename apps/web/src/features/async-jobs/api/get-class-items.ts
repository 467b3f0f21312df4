import { useQuery } from '@tanstack/react-query';
import { ClassItems } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

export type ClassItem = ClassItems['items'][number];

/** `GET /internal/intelligence/ontology/concepts/_classes?classType=` → the concepts of a class. */
export async function getClassItems(classType: string, signal?: AbortSignal): Promise<ClassItem[]> {
  const answer = await callRoute('GET', '/internal/intelligence/ontology/concepts/_classes', {
    query: { classType },
    schema: ClassItems,
    ...(signal ? { signal } : {}),
  });
  return answer.items;
}

/** The observations of a class type ('symptom', 'sign'…); nothing is asked without one. */
export function useClassItems(classType: string) {
  return useQuery({
    queryKey: ['async-jobs', 'classes', classType],
    queryFn: ({ signal }) => getClassItems(classType, signal),
    enabled: classType !== '',
    retry: false,
    staleTime: 60_000,
  });
}
