import { z } from 'zod';

/** Wire shapes of the differential diagnosis test tool (spec 3 §3 "Test-tool types"). */

/** An observation input: a name (or alias, or id) and a weight, default 1. */
export const ObservationInput = z.object({
  observation: z.string().min(1),
  weight: z.number().min(0).default(1),
  presence: z.enum(['endorse', 'deny', 'unsure']).optional(),
});
export type ObservationInput = z.infer<typeof ObservationInput>;

/** The diagnosis prediction: ranked conditions and the observations that would tell them apart. */
export const DiagnosisPrediction = z.object({
  inference: z.array(
    z.object({
      condition: z.string(),
      conditionId: z.string(),
      probability: z.number().min(0).max(1),
      acuity: z.enum(['emergent', 'urgent', 'other']).optional(),
      associatedObservations: z
        .array(z.object({ observation: z.string(), observationId: z.string(), weight: z.number() }))
        .min(1),
    }),
  ),
  differentiatingObservations: z.array(
    z.object({
      observation: z.string(),
      observationId: z.string(),
      relevance: z.number().min(0).max(1),
    }),
  ),
  unknownObservations: z.array(z.string()),
});
export type DiagnosisPrediction = z.infer<typeof DiagnosisPrediction>;
