import { z } from 'zod';

/**
 * The Loopdesk knowledge-base format, version 1.
 *
 * A knowledge base is one JSON document (or several merged, see `merge.ts`) holding concepts,
 * condition→observation relationships, complications and questions. The format is described
 * for people in packages/clinical/README.md; these schemas are the rule.
 *
 * Versioning: `formatVersion` is `MAJOR.MINOR`. A reader accepts any minor of its major: a minor
 * only adds optional fields. A change that existing readers would misread raises the major.
 */
export const FORMAT_VERSION = '1.2';
const FORMAT_MAJOR = FORMAT_VERSION.split('.')[0] ?? '1';

/** What a concept is (defined once in contracts, the wire format). Observations come in three kinds: `sign`, `symptom` and the general `observation`. */
import { CONCEPT_CLASSES } from '@loopdesk/contracts/intelligence.ts';
export { CONCEPT_CLASSES };
export const ConceptClass = z.enum(CONCEPT_CLASSES);
export type ConceptClass = z.infer<typeof ConceptClass>;

/** Classes a relationship may point at: what a patient reports, a clinician finds, or a risk factor. */
export const OBSERVATION_CLASSES = [
  'observation',
  'sign',
  'symptom',
  'epidemiologicalFactor',
] as const satisfies readonly ConceptClass[];

/** Acuity of a condition or a complication (spec 3 §4). */
export const Acuity = z.enum(['emergent', 'urgent', 'other']);
export type Acuity = z.infer<typeof Acuity>;

/**
 * How often a condition is met where the KB is used (primary and urgent care), as a relative
 * prior for the differential: common, uncommon or rare. Added in format 1.1.
 */
export const Prevalence = z.enum(['common', 'uncommon', 'rare']);
export type Prevalence = z.infer<typeof Prevalence>;

/** A concept id: a prefix and a local part, e.g. `LD:asthma`, `DOID:2841`, `SYMP:0000457`, `UMLS:C0004096`. */
export const ConceptId = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*:\S+$/, 'expected PREFIX:local-id without spaces');
export type ConceptId = z.infer<typeof ConceptId>;

/** A UMLS Concept Unique Identifier. */
export const Cui = z.string().regex(/^C\d{7}$/, 'expected a UMLS CUI such as C0004096');
export type Cui = z.infer<typeof Cui>;

/** A code in an external system. `system` is a short name: UMLS, ICD10CM, SNOMEDCT_US, MESH, NCI, OMIM… */
export const Code = z.object({ system: z.string().min(1), code: z.string().min(1) });
export type Code = z.infer<typeof Code>;

/** Where an item comes from: a source name and the item's id (or a reference) in that source. */
export const Provenance = z.object({
  source: z.string().min(1),
  reference: z.string().min(1),
});
export type Provenance = z.infer<typeof Provenance>;

const ids = z.array(ConceptId).default([]);

/** Where one alias comes from (format 1.2): the authored KB, an open ontology, a phrase rule. */
export const AliasSource = z.object({
  alias: z.string().trim().min(1),
  source: z.string().min(1),
  reference: z.string().min(1),
});
export type AliasSource = z.infer<typeof AliasSource>;

/** A concept: a condition, an observation, a body system, a medication… */
export const Concept = z
  .object({
    id: ConceptId,
    cui: Cui.optional(),
    canonicalName: z.string().trim().min(1),
    /** Other names, lay words included ('tummy ache'). Matched by concept search. */
    aliases: z.array(z.string().trim().min(1)).default([]),
    /** Format 1.2: the source of each alias (an alias missing here: the concept's provenance). */
    aliasSources: z.array(AliasSource).optional(),
    class: ConceptClass,
    definition: z.string().optional(),
    /** `is_a` parents (ids of concepts, possibly in another KB part). */
    parents: ids,
    bodySystems: ids,
    anatomicalLocations: ids,
    pathologicalProcesses: ids,
    /** Only for conditions: how soon a patient with it needs care. */
    acuity: Acuity.optional(),
    /** Only for conditions: how often it is met (format 1.1). */
    prevalence: Prevalence.optional(),
    codes: z.array(Code).default([]),
    provenance: z.array(Provenance).min(1),
  })
  .refine((c) => c.acuity === undefined || c.class === 'condition', {
    message: 'only a condition has an acuity',
    path: ['acuity'],
  })
  .refine((c) => c.prevalence === undefined || c.class === 'condition', {
    message: 'only a condition has a prevalence',
    path: ['prevalence'],
  });
export type Concept = z.infer<typeof Concept>;
export type ConceptInput = z.input<typeof Concept>;

/** Correlation of an observation with a condition (spec 3 §3 "Observation relationship"). */
export const Correlation = z.enum(['Positive', 'Negative']);
export type Correlation = z.infer<typeof Correlation>;

/** Weight choices shown to staff (spec 3 §9). */
export const WeightLevel = z.enum(['Low', 'Medium', 'High']);
export type WeightLevel = z.infer<typeof WeightLevel>;

/** A weight is a level, or a likelihood ratio-like number in (0, 1]. */
export const Weight = z.union([WeightLevel, z.number().gt(0).max(1)]);
export type Weight = z.infer<typeof Weight>;

/** A condition → observation edge. Unweighted pairs (e.g. from ontologies) omit `weight`. */
export const Relationship = z.object({
  id: z.string().min(1),
  from: ConceptId,
  to: ConceptId,
  correlation: Correlation.default('Positive'),
  weight: Weight.optional(),
  /** Share of patients with the condition who have the observation, 0..1. */
  frequency: z.number().min(0).max(1).optional(),
  /** Why the edge exists: 'DO disease-symptom', 'clinician-authored: typical presentation'… */
  basis: z.string().min(1),
  provenance: z.array(Provenance).default([]),
});
export type Relationship = z.infer<typeof Relationship>;

/** Something a condition can turn into, with its acuity and the question that checks for it. */
export const Complication = z.object({
  id: z.string().min(1),
  condition: ConceptId,
  name: z.string().min(1),
  /** The concept the complication is, when the KB holds it (a condition or an observation). */
  concept: ConceptId.optional(),
  acuity: Acuity,
  /** What to ask the patient; an 'endorse' answer raises the acuity (spec 3 §4). */
  question: z.string().min(1).optional(),
  basis: z.string().min(1),
  provenance: z.array(Provenance).default([]),
});
export type Complication = z.infer<typeof Complication>;

/** A question asked of a patient, and the observations its answer tells about. */
export const Question = z.object({
  id: z.string().min(1),
  content: z.string().min(1),
  observations: z.array(ConceptId).min(1),
  conditions: ids,
  provenance: z.array(Provenance).default([]),
});
export type Question = z.infer<typeof Question>;

/** A medication used for a condition (optional list; revised by the medications pipeline). */
export const Treatment = z.object({
  id: z.string().min(1),
  condition: ConceptId,
  medication: ConceptId,
  basis: z.string().min(1),
  provenance: z.array(Provenance).default([]),
});
export type Treatment = z.infer<typeof Treatment>;

/** The items of a knowledge base; also what every importer returns. */
export const KbItems = z.object({
  concepts: z.array(Concept).default([]),
  relationships: z.array(Relationship).default([]),
  complications: z.array(Complication).default([]),
  questions: z.array(Question).default([]),
  /** Optional: absent means none (readers of format 1.0 before it ignore it). */
  treatments: z.array(Treatment).optional(),
});
export type KbItems = z.infer<typeof KbItems>;

/** A knowledge base document. */
export const KnowledgeBase = z.object({
  formatVersion: z
    .string()
    .regex(/^\d+\.\d+$/)
    .refine((v) => v.split('.')[0] === FORMAT_MAJOR, {
      message: `this reader understands format ${FORMAT_MAJOR}.x`,
    }),
  /** Version of the content, e.g. '2026.11.0'. */
  kbVersion: z.string().min(1),
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  items: KbItems,
});
export type KnowledgeBase = z.infer<typeof KnowledgeBase>;

/** An empty set of items. */
export function emptyItems(): KbItems {
  return { concepts: [], relationships: [], complications: [], questions: [] };
}

const LEVEL_VALUE: Record<WeightLevel, number> = { Low: 0.25, Medium: 0.5, High: 0.85 };

/** The numeric value of a weight (levels map to 0.25, 0.5, 0.85; a missing weight counts as Low). */
export function weightValue(weight: Weight | undefined): number {
  if (weight === undefined) {
    return LEVEL_VALUE.Low;
  }
  return typeof weight === 'number' ? weight : LEVEL_VALUE[weight];
}
