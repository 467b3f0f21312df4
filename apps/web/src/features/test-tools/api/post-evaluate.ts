import { mutationOptions, useMutation } from '@tanstack/react-query';
import { EntityExtractionResult, NLP_CONTENT_TYPE } from '@loopdesk/contracts/nlp.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `POST /internal/nlp/evaluate` `{ text }` → the entity extraction result, whose `resolved` holds
 * the entity recognition test tool's state (spec 3 §3). The NLP service is versioned: the call
 * names the version it speaks (docs/intelligence-api.md "Versioning").
 */
export function evaluateText(text: string): Promise<EntityExtractionResult> {
  return callRoute('POST', '/internal/nlp/evaluate', {
    body: { text },
    headers: { Accept: NLP_CONTENT_TYPE },
    schema: EntityExtractionResult,
  });
}

export function evaluateTextMutationOptions() {
  return mutationOptions({
    mutationKey: ['nlp', 'evaluate'],
    mutationFn: (text: string) => evaluateText(text),
  });
}

/** Evaluates a text; the caller reacts to success and failure. */
export function useEvaluateText() {
  return useMutation(evaluateTextMutationOptions());
}
