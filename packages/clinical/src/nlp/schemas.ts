import { z } from 'zod';

/**
 * Wire shapes of entity recognition, for the server to re-export through contracts:
 * the evaluation call's result (spec 3 §3 "Entity extraction result"), the test tool's
 * recognition state, and the automated recognition result of the annotation screens (spec 2 §3).
 */

/** Whether the text says the patient has the finding. */
export const Presence = z.enum(['endorse', 'deny', 'unsure']);
export type Presence = z.infer<typeof Presence>;

/** ConText flags of a mention. */
export const MentionContext = z.object({
  historical: z.boolean(),
  family: z.boolean(),
  hypothetical: z.boolean(),
});
export type MentionContext = z.infer<typeof MentionContext>;

/** A concept an entity was normalised to; `bestMatch` marks the chosen one. */
export const NormalisedConcept = z.object({
  id: z.string(),
  display: z.string(),
  class: z.string(),
  bestMatch: z.boolean(),
});
export type NormalisedConcept = z.infer<typeof NormalisedConcept>;

/** How an onset expression places the start of a complaint. */
export const OnsetDetail = z.object({
  relation: z.enum(['since', 'duration', 'ago', 'point']),
  amount: z.number().optional(),
  unit: z.string().optional(),
});
export type OnsetDetail = z.infer<typeof OnsetDetail>;

const span = {
  /** Character offsets into `text`; `end` is exclusive. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  /** The span's id, unique in one result ('x1', 'x2'…, phrases 'p1'…). */
  extractId: z.string(),
  original: z.string(),
};

/** A recognised span: a concept mention (`id` is the concept id) or an onset (`id` 'onset'). */
export const ExtractedEntity = z.object({
  ...span,
  id: z.string(),
  /** The concept class, or 'onset'. */
  category: z.string(),
  display: z.string(),
  negated: z.boolean(),
  presence: Presence,
  context: MentionContext,
  normalised: z.array(NormalisedConcept),
  onset: OnsetDetail.optional(),
});
export type ExtractedEntity = z.infer<typeof ExtractedEntity>;

/** A phrase: a clause of a sentence, with the extract ids of the entities inside it. */
export const ExtractedPhrase = z.object({
  ...span,
  id: z.string(),
  entityIds: z.array(z.string()),
});
export type ExtractedPhrase = z.infer<typeof ExtractedPhrase>;

/** A condition or observation mention: `id` is the concept id, `extractId` its entity's. */
export const ExtractedConcept = z.object({
  ...span,
  id: z.string(),
  display: z.string(),
  class: z.string(),
  negated: z.boolean(),
  presence: Presence,
  context: MentionContext,
});
export type ExtractedConcept = z.infer<typeof ExtractedConcept>;

/** Result of the entity recognition evaluation call (spec 3 §3 "Entity extraction result"). */
export const EntityExtractionResult = z.object({
  text: z.string(),
  entities: z.array(ExtractedEntity),
  phrases: z.array(ExtractedPhrase),
  conditions: z.array(ExtractedConcept),
  observations: z.array(ExtractedConcept),
});
export type EntityExtractionResult = z.infer<typeof EntityExtractionResult>;

/** A normalised item as the test tool shows it. */
export const NormalisedItem = z.object({ id: z.string(), display: z.string() });
export type NormalisedItem = z.infer<typeof NormalisedItem>;

/** A piece of resolved text: plain text, or a recognised span with its normalised items. */
export const ResolvedSegment = z.union([
  z.string(),
  z.object({ original: z.string(), normalised: z.array(NormalisedItem) }),
]);
export type ResolvedSegment = z.infer<typeof ResolvedSegment>;

/** The entity recognition test tool's state (spec 3 §3 "Test-tool types"). */
export const EntityRecognitionState = z.object({
  resolvedEntities: z.array(ResolvedSegment),
  resolvedPhrases: z.array(ResolvedSegment),
  normalisedObservations: z.array(NormalisedItem),
});
export type EntityRecognitionState = z.infer<typeof EntityRecognitionState>;

/** A coding of an automatically recognised entity. */
export const Coding = z.object({
  display: z.string(),
  code: z.string(),
  system: z.string().optional(),
});
export type Coding = z.infer<typeof Coding>;

/** One entity of the automated recognition result (spec 2 §3). */
export const AutomatedEntity = z.object({
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  original: z.string(),
  concepts: z.array(z.object({ coding: Coding, bestMatch: z.boolean() })),
  semanticTypes: z.array(z.string()),
});
export type AutomatedEntity = z.infer<typeof AutomatedEntity>;

/** The automated recognition result (spec 2 §3). */
export const AutomatedRecognitionResult = z.object({ entities: z.array(AutomatedEntity) });
export type AutomatedRecognitionResult = z.infer<typeof AutomatedRecognitionResult>;
