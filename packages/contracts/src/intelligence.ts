import { z } from 'zod';
import { Presence } from './nlp.ts';
import { trimmed } from './text-fields.ts';

/**
 * Wire shapes of the ontology, clinical inference and typeahead routes (spec 1 §7, spec 2 §3,
 * spec 3 §3 and §7; the NLP routes' are in nlp.ts). The clinical core (packages/clinical) has its
 * own types; the server maps its results onto these. Contracts do not depend on the clinical package, so the few lists both
 * need (concept classes, vertex classes, model names) are mirrored here; a server test checks
 * they stay equal.
 */

/** Concept classes of the knowledge base; packages/clinical uses this list. */
export const CONCEPT_CLASSES = [
  'condition',
  'observation',
  'sign',
  'symptom',
  'medication',
  'anatomicalLocation',
  'bodySystem',
  'pathologicalProcess',
  'epidemiologicalFactor',
  'labTest',
  'imaging',
  'procedure',
  'action',
  'communication',
  'device',
  'sex',
  'vocabulary',
] as const;
export const ConceptClass = z.enum(CONCEPT_CLASSES);
export type ConceptClass = z.infer<typeof ConceptClass>;

/** Vertex classes of the knowledge-graph inspector (spec 3 §3); signs and symptoms are `observation`. */
export const VERTEX_CLASSES = [
  'medication',
  'action',
  'imaging',
  'procedure',
  'communication',
  'device',
  'labTest',
  'condition',
  'observation',
  'question',
  'anatomicalLocation',
  'bodySystem',
  'epidemiologicalFactor',
  'pathologicalProcess',
  'sex',
  'vocabulary',
] as const;
export type VertexClass = (typeof VERTEX_CLASSES)[number];

/** Models listed by `GET /internal/intelligence/ontology/models/{modelName}`. */
export const MODEL_NAMES = [
  'pathological-processes',
  'body-systems',
  'anatomical-locations',
  'conditions',
] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

const Acuity = z.enum(['emergent', 'urgent', 'other']);

/** A query flag: `true`, `false`, `1`, `0` or empty (false). */
export const QueryFlag = z
  .enum(['true', 'false', '1', '0', ''], { message: 'must be true or false' })
  .optional()
  .transform((value) => value === 'true' || value === '1');

// ── Typeahead and concept search ────────────────────────────────────────────────────────────

/** The least number of characters typeahead searches with (spec 1 §5, spec 3 §4). */
export const TYPEAHEAD_MIN_CHARS = 3;

/**
 * The text of a concept search (`_search`, `data/concept/_query`): trimmed, from
 * TYPEAHEAD_MIN_CHARS to 200 characters (spec 3 §9: concept search starts at 3 characters).
 */
const searchText = z
  .string({ message: 'is required: the text to search for' })
  .trim()
  .min(TYPEAHEAD_MIN_CHARS, {
    message: `needs at least ${TYPEAHEAD_MIN_CHARS} characters (spaces around it do not count)`,
  })
  .max(200, { message: 'must be at most 200 characters' });

/** `GET /internal/utilities/typeahead?t=&type=`. The length rule is the handler's (400 with the minimum). */
export const TypeaheadQuery = z.object({
  t: z
    .string({ message: 'is required once: the text to look up' })
    .max(200, { message: 'must be at most 200 characters' }),
  type: z
    .enum(['concept', 'trained'], { message: "must be 'concept' or 'trained'" })
    .default('concept'),
});
export type TypeaheadQuery = z.infer<typeof TypeaheadQuery>;

/**
 * One concept search result (spec 1 §3): `index` lists the aliases; `name` is the name that
 * matched. It is also spec 2 §3's concept option: `relevance` (the search score, 0..1), `types`
 * (UMLS semantic type names of the concept's class) and `sources` (its codes, `{ system, code }`).
 * The server always sends those three; they are optional for callers written before them.
 */
export const TypeaheadResult = z.object({
  name: z.string(),
  canonicalName: z.string(),
  conceptId: z.string(),
  index: z.array(z.string()),
  relevance: z.number().optional(),
  types: z.array(z.string()).optional(),
  sources: z.array(z.object({ system: z.string(), code: z.string() })).optional(),
});
export type TypeaheadResult = z.infer<typeof TypeaheadResult>;

export const TypeaheadResponse = z.object({ results: z.array(TypeaheadResult) });
export type TypeaheadResponse = z.infer<typeof TypeaheadResponse>;

/**
 * `POST /internal/intelligence/ontology/concepts/_search`. `dataType` restricts the classes
 * (`observation` also covers signs and symptoms); empty or absent searches every class.
 */
export const ConceptSearchBody = z.object({
  query: searchText,
  dataType: z
    .array(
      z.enum(CONCEPT_CLASSES, {
        message: `must be a concept class: one of ${CONCEPT_CLASSES.join(', ')}`,
      }),
      { message: 'must be a list of concept classes, such as ["symptom"]' },
    )
    .max(CONCEPT_CLASSES.length)
    .default([]),
  limit: z
    .number({ message: 'must be a whole number from 1 to 100' })
    .int({ message: 'must be a whole number from 1 to 100' })
    .min(1, { message: 'must be a whole number from 1 to 100' })
    .max(100, { message: 'must be a whole number from 1 to 100' })
    .default(20),
});
export type ConceptSearchBody = z.infer<typeof ConceptSearchBody>;

/** Concept search result of spec 3 §3: canonicalName, conceptId, index (aliases). */
export const ConceptSearchResult = z.object({
  canonicalName: z.string(),
  conceptId: z.string(),
  index: z.array(z.string()),
  class: ConceptClass,
  score: z.number(),
});
export const ConceptSearchResponse = z.object({ results: z.array(ConceptSearchResult) });
export type ConceptSearchResponse = z.infer<typeof ConceptSearchResponse>;

/** `GET /internal/async-jobs/data/concept/_query?q=`. */
export const ConceptQuery = z.object({
  q: searchText,
});
export const ConceptQueryResponse = z.object({
  results: z.array(
    z.object({
      conceptId: z.string(),
      canonicalName: z.string(),
      aliases: z.array(z.string()),
    }),
  ),
});
export type ConceptQueryResponse = z.infer<typeof ConceptQueryResponse>;

// ── Ontology ────────────────────────────────────────────────────────────────────────────────

/** `GET …/ontology/concepts/_classes?classType=`; the class is checked by the handler (400 lists them). */
export const ClassesQuery = z.object({ classType: z.string().optional() });
export const ClassItems = z.object({
  items: z.array(z.object({ id: z.string(), display: z.string() })),
});
export type ClassItems = z.infer<typeof ClassItems>;

export const ModelParams = z.object({ modelName: z.string() });
/** A model's items (spec 3 §3 "condition model {bid, display}"). */
export const ModelItems = z.object({
  items: z.array(z.object({ bid: z.string(), display: z.string() })),
});
export type ModelItems = z.infer<typeof ModelItems>;

export const MetadataQuery = z.object({ metadata: QueryFlag });

/** `GET …/ontology/models/relationships?metadata=`: every condition → observation edge. */
export const RelationshipList = z.object({
  items: z.array(
    z.object({
      bid: z.string(),
      from: z.string(),
      to: z.string(),
      fromDisplay: z.string().optional(),
      toDisplay: z.string().optional(),
      correlation: z.enum(['Positive', 'Negative']).optional(),
      weight: z.number().optional(),
      basis: z.string().optional(),
    }),
  ),
});
export type RelationshipList = z.infer<typeof RelationshipList>;

export const SubgraphParams = z.object({ model: z.string(), id: z.string() });
/** Repeated `classExtensions` (one value arrives as a string). Checked by the handler. */
export const SubgraphQuery = z.object({
  classExtensions: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
});
export type SubgraphQuery = z.infer<typeof SubgraphQuery>;

/** The knowledge graph around a condition (spec 3 §3). */
export const Subgraph = z.object({
  vertexes: z.array(
    z.object({
      bid: z.string(),
      class: z.string(),
      display: z.string(),
      content: z.string().optional(),
    }),
  ),
  edges: z.array(
    z.object({
      bid: z.string(),
      from: z.string(),
      to: z.string(),
      rel: z.string(),
      class: z.string(),
      weight: z.number(),
    }),
  ),
});
export type Subgraph = z.infer<typeof Subgraph>;

// ── Clinical inference lists ────────────────────────────────────────────────────────────────

/** The largest page of `GET …/clinical_inference/ontology`. */
export const ONTOLOGY_MAX_PAGE_SIZE = 10_000;

export const OntologyCount = z.object({ count: z.number().int().nonnegative() });

export const OntologyPageQuery = z.object({
  p: z.coerce
    .number({ message: 'must be a page number from 0' })
    .int({ message: 'must be a whole number' })
    .min(0, { message: 'must be 0 or more (pages count from 0)' })
    .default(0),
  s: z.coerce
    .number({ message: `must be a page size from 1 to ${ONTOLOGY_MAX_PAGE_SIZE}` })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(ONTOLOGY_MAX_PAGE_SIZE, { message: `must be at most ${ONTOLOGY_MAX_PAGE_SIZE}` })
    .default(100),
});
export type OntologyPageQuery = z.infer<typeof OntologyPageQuery>;

const CodeShape = z.object({ system: z.string(), code: z.string() });

/**
 * An ontology entry (spec 3 §3 "keyed by field c"): `c` is the concept id (`LD:fever`,
 * `DOID:2841`…), the key every other call uses as `bid`, `conceptId` or `id`.
 */
export const OntologyEntry = z.object({
  c: z.string(),
  display: z.string(),
  class: ConceptClass,
  cui: z.string().optional(),
  aliases: z.array(z.string()),
  codes: z.array(CodeShape),
});
export type OntologyEntry = z.infer<typeof OntologyEntry>;

export const OntologyPage = z.object({
  items: z.array(OntologyEntry),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
});
export type OntologyPage = z.infer<typeof OntologyPage>;

/**
 * A condition or observation record (spec 3 §3): `bid` the concept id, `name` the name the
 * differential accepts (the canonical name), `display` the same for the screen. With
 * `metadata=true` also the class, CUI, aliases, definition and (conditions) acuity and body systems.
 */
export const InferenceRecord = z.object({
  bid: z.string(),
  codes: z.array(CodeShape),
  display: z.string(),
  name: z.string(),
  class: ConceptClass.optional(),
  cui: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  definition: z.string().optional(),
  acuity: Acuity.optional(),
  /** Conditions: how often met in primary and urgent care (the differential's prior). */
  prevalence: z.enum(['common', 'uncommon', 'rare']).optional(),
  bodySystems: z.array(z.string()).optional(),
});
export type InferenceRecord = z.infer<typeof InferenceRecord>;

export const InferenceRecordList = z.object({ items: z.array(InferenceRecord) });
export type InferenceRecordList = z.infer<typeof InferenceRecordList>;

// ── Differential diagnosis ──────────────────────────────────────────────────────────────────

/** The largest weight of an observation given to the differential (the least is 0). */
export const MAX_OBSERVATION_WEIGHT = 100;
const weightMessage = `must be a number from 0 to ${MAX_OBSERVATION_WEIGHT}`;

/** An observation input (spec 3 §3): a name, alias or id and a weight (default 1). */
export const ObservationInput = z.object({
  observation: trimmed('an observation name, alias or id', 200),
  weight: z
    .number({ message: weightMessage })
    .min(0, { message: weightMessage })
    .max(MAX_OBSERVATION_WEIGHT, { message: weightMessage })
    .default(1),
  presence: z.enum(['endorse', 'deny', 'unsure']).optional(),
});
export type ObservationInput = z.infer<typeof ObservationInput>;

export const DifferentialBody = z.object({
  observations: z
    .array(ObservationInput, { message: 'is required: a list of {observation, weight}' })
    .min(1, { message: 'needs at least one observation' })
    .max(200, { message: 'takes at most 200 observations' }),
});
export type DifferentialBody = z.infer<typeof DifferentialBody>;

/** The diagnosis prediction (spec 3 §3); probability and relevance are numbers in 0..1. */
export const DiagnosisPrediction = z.object({
  inference: z.array(
    z.object({
      condition: z.string(),
      conditionId: z.string(),
      probability: z.number(),
      acuity: Acuity.optional(),
      associatedObservations: z.array(
        z.object({ observation: z.string(), observationId: z.string(), weight: z.number() }),
      ),
    }),
  ),
  differentiatingObservations: z.array(
    z.object({ observation: z.string(), observationId: z.string(), relevance: z.number() }),
  ),
  unknownObservations: z.array(z.string()),
  /** Acuity of the differential (spec 3 §4): the top entry's here, no complication answers. */
  acuity: Acuity.optional(),
});
export type DiagnosisPrediction = z.infer<typeof DiagnosisPrediction>;

// ── A conversation's differential ───────────────────────────────────────────────────────────

/**
 * `GET /internal/intelligence/conversations/{id}/clinical_inference/differential_diagnosis`
 * (spec 3 §3 "Differential inference", §4 acuity): the differential of what the patient has said,
 * under `value` (the spec reads `value.inference`).
 */
export const ConversationDifferentialResponse = z.object({
  value: z.object({
    conversationId: z.string(),
    /** The patient's own current findings the conversation names, latest mention of each. */
    observations: z.array(
      z.object({
        observation: z.string(),
        observationId: z.string(),
        class: z.string(),
        presence: Presence,
        messageId: z.string(),
        original: z.string(),
      }),
    ),
    inference: z.array(
      z.object({
        conditionName: z.string(),
        conditionId: z.string(),
        probability: z.number(),
        acuity: Acuity.optional(),
        complications: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            question: z.string().optional(),
            acuity: Acuity,
            /** 'endorse' or 'deny' when the conversation mentions the complication. */
            response: z.enum(['endorse', 'deny']).optional(),
          }),
        ),
        associatedObservations: z.array(
          z.object({ observation: z.string(), observationId: z.string(), weight: z.number() }),
        ),
      }),
    ),
    differentiatingObservations: z.array(
      z.object({ observation: z.string(), observationId: z.string(), relevance: z.number() }),
    ),
    /** The differential's acuity (spec 3 §4), answered complications included. */
    acuity: Acuity.optional(),
    /** Ring fill of the acuity: emergent 100, urgent 60, anything else 30. */
    acuityRing: z.number(),
  }),
});
export type ConversationDifferentialResponse = z.infer<typeof ConversationDifferentialResponse>;
