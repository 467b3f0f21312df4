import { useQuery } from '@tanstack/react-query';
import { ModelItems, type ModelName } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

export type ModelItem = ModelItems['items'][number];

/** `GET /internal/intelligence/ontology/models/{model}` → `{ bid, display }` items. */
export async function getModelItems(model: ModelName, signal?: AbortSignal): Promise<ModelItem[]> {
  const answer = await callRoute('GET', '/internal/intelligence/ontology/models/:modelName', {
    params: { modelName: model },
    schema: ModelItems,
    ...(signal ? { signal } : {}),
  });
  return answer.items;
}

export function useModelItems(model: ModelName) {
  return useQuery({
    queryKey: ['async-jobs', 'model', model],
    queryFn: ({ signal }) => getModelItems(model, signal),
    retry: false,
    staleTime: 60_000,
  });
}
