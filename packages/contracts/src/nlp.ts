import { z } from 'zod';
import { trimmed } from './text-fields.ts';

/**
 * Wire shapes of the NLP routes (spec 1 §7, spec 2 §9, spec 3 §3 "Test-tool types"): entity
 * recognition, normalisation and evaluation. The clinical core (packages/clinical/src/nlp) has its
 * own types; the server maps its results onto these.
 */

/** Version of the NLP service (spec 1 §7, spec 2 §9). */
export const NLP_VERSION = '0.1.0';
/** Media type of the NLP answers; `Accept` may name it with `; version=0.1.0`. */
export const NLP_MEDIA_TYPE = 'application/vnd.loopdesk.nlp+json';
export const NLP_CONTENT_TYPE = `${NLP_MEDIA_TYPE}; version=${NLP_VERSION}`;

/**
 * Body of the NLP calls: a text (blank → 400; longer than NLP_MAX_TEXT_CHARS → 413). It is not
 * trimmed: the offsets of the answer point into the text as sent.
 */
export const NlpTextBody = z.object({
  text: z
    .string({ message: 'is required: the text to analyse' })
    .refine((text) => text.trim() !== '', { message: 'must not be empty' }),
});
export type NlpTextBody = z.infer<typeof NlpTextBody>;

export const EntitiesQuery = z.object({
  /** Default true: each entity with its concepts; false: spans and semantic types only. */
  resolve: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true' || value === '1'),
});

/** The automated recognition result (spec 2 §3). */
export const AutomatedRecognitionResult = z.object({
  entities: z.array(
    z.object({
      start: z.number().int(),
      end: z.number().int(),
      original: z.string(),
      concepts: z.array(
        z.object({
          coding: z.object({
            display: z.string(),
            code: z.string(),
            system: z.string().optional(),
          }),
          bestMatch: z.boolean(),
        }),
      ),
      semanticTypes: z.array(z.string()),
    }),
  ),
});
export type AutomatedRecognitionResult = z.infer<typeof AutomatedRecognitionResult>;

export const Presence = z.enum(['endorse', 'deny', 'unsure']);
const MentionContext = z.object({
  historical: z.boolean(),
  family: z.boolean(),
  hypothetical: z.boolean(),
});
const NormalisedConcept = z.object({
  id: z.string(),
  display: z.string(),
  class: z.string(),
  bestMatch: z.boolean(),
});

/** An entity to normalise: its text, and where it sits when known. */
export const EntityToNormalise = z
  .object({
    extract: trimmed('the text of the entity'),
    start: z
      .number({ message: 'must be a character offset (0 or more)' })
      .int({ message: 'must be a character offset (0 or more)' })
      .min(0, { message: 'must be a character offset (0 or more)' })
      .optional(),
    end: z
      .number({ message: 'must be a character offset (0 or more)' })
      .int({ message: 'must be a character offset (0 or more)' })
      .min(0, { message: 'must be a character offset (0 or more)' })
      .optional(),
  })
  .refine(
    (entity) =>
      entity.start === undefined || entity.end === undefined || entity.start <= entity.end,
    { message: 'end must not come before start', path: ['end'] },
  );

/** `POST /internal/nlp/normalise`: a text to recognise, or entities already cut out. */
export const NormaliseBody = z
  .object({
    text: z.string().optional(),
    entities: z.array(EntityToNormalise).max(500).optional(),
  })
  .refine((body) => body.text !== undefined || body.entities !== undefined, {
    message: 'send either text or entities',
  });
export type NormaliseBody = z.infer<typeof NormaliseBody>;

export const NormaliseResponse = z.object({
  entities: z.array(
    z.object({
      extract: z.string(),
      start: z.number().int().optional(),
      end: z.number().int().optional(),
      concepts: z.array(NormalisedConcept),
    }),
  ),
});
export type NormaliseResponse = z.infer<typeof NormaliseResponse>;

const span = {
  start: z.number().int(),
  end: z.number().int(),
  extractId: z.string(),
  original: z.string(),
};
const NormalisedItem = z.object({ id: z.string(), display: z.string() });
const ResolvedSegment = z.union([
  z.string(),
  z.object({ original: z.string(), normalised: z.array(NormalisedItem) }),
]);
const ExtractedConcept = z.object({
  ...span,
  id: z.string(),
  display: z.string(),
  class: z.string(),
  negated: z.boolean(),
  presence: Presence,
  context: MentionContext,
});

/** The evaluation call's result (spec 3 §3 "Entity extraction result") plus the test tool's state. */
export const EntityExtractionResult = z.object({
  text: z.string(),
  entities: z.array(
    z.object({
      ...span,
      id: z.string(),
      category: z.string(),
      display: z.string(),
      negated: z.boolean(),
      presence: Presence,
      context: MentionContext,
      normalised: z.array(NormalisedConcept),
      onset: z
        .object({
          relation: z.enum(['since', 'duration', 'ago', 'point']),
          amount: z.number().optional(),
          unit: z.string().optional(),
        })
        .optional(),
    }),
  ),
  phrases: z.array(z.object({ ...span, id: z.string(), entityIds: z.array(z.string()) })),
  conditions: z.array(ExtractedConcept),
  observations: z.array(ExtractedConcept),
  /** The entity recognition test tool's state (spec 3 §3 "Test-tool types"). */
  resolved: z.object({
    resolvedEntities: z.array(ResolvedSegment),
    resolvedPhrases: z.array(ResolvedSegment),
    normalisedObservations: z.array(NormalisedItem),
  }),
});
export type EntityExtractionResult = z.infer<typeof EntityExtractionResult>;
