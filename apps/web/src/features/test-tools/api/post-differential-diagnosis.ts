import { mutationOptions, useMutation } from '@tanstack/react-query';
import { DiagnosisPrediction } from '@loopdesk/contracts/intelligence.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * One observation sent to the differential: a name and, optionally, a weight (server default 1)
 * and 'deny' for an observation the patient denies (issue 20 #26; absent means present).
 */
export interface DifferentialObservation {
  observation: string;
  weight?: number;
  presence?: 'deny';
}

/**
 * `POST /internal/intelligence/clinical_inference/differential_diagnosis`
 * `{ observations: [{ observation, weight?, presence? }] }` → the diagnosis prediction (spec 3 §3).
 */
export function predictDifferential(
  observations: readonly DifferentialObservation[],
): Promise<DiagnosisPrediction> {
  const body = {
    observations: observations.map((item) => ({
      observation: item.observation,
      ...(item.weight === undefined ? {} : { weight: item.weight }),
      ...(item.presence === undefined ? {} : { presence: item.presence }),
    })),
  };
  return callRoute('POST', '/internal/intelligence/clinical_inference/differential_diagnosis', {
    body,
    schema: DiagnosisPrediction,
  });
}

export function predictDifferentialMutationOptions() {
  return mutationOptions({
    mutationKey: ['clinical-inference', 'differential-diagnosis'],
    mutationFn: (observations: readonly DifferentialObservation[]) =>
      predictDifferential(observations),
  });
}

/** Predicts a differential; the caller reacts to success and failure. */
export function usePredictDifferential() {
  return useMutation(predictDifferentialMutationOptions());
}
