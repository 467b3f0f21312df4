/**
 * The authoring form of data/kb/kb.json. People edit these files; `npm run kb:build` turns them
 * into the knowledge-base format of packages/clinical (README there) and checks the result.
 *
 * Ids are local: an observation `fever` becomes `LD:fever`, a body system `respiratory`
 * becomes `LD:system/respiratory`, a location `chest` `LD:location/chest`, a process `infection`
 * `LD:process/infection`.
 */
import type { Acuity, Prevalence } from '@loopdesk/clinical/kb/format.ts';

/** Classes an observation may have (the knowledge base's observation classes). */
export type ObservationClass = 'symptom' | 'sign' | 'observation' | 'epidemiologicalFactor';

/** A body system, anatomical location or pathological process. */
export interface StructureDef {
  id: string;
  name: string;
  cui?: string;
  aka?: string[];
}

/** A sign, symptom, general observation or risk factor. */
export interface ObservationDef {
  id: string;
  name: string;
  cls: ObservationClass;
  cui?: string;
  /** Aliases, lay words first-class: what a patient types in chat. */
  aka: string[];
  sys?: string[];
  loc?: string[];
  def?: string;
}

/** A red-flag complication: what to ask, and how urgent an 'endorse' answer makes it. */
export interface ComplicationDef {
  /** Local name; the id becomes `LD:<condition>~<id>`. */
  id: string;
  name: string;
  /** The concept the complication is, when the KB holds it (a condition or an observation). */
  concept?: string;
  acuity: Acuity;
  /** A yes/no question to the patient. */
  q: string;
}

/**
 * A condition. `for` and `against` list the observations that suggest it and argue against it,
 * as `id:W` separated by spaces, W being H (High), M (Medium) or L (Low): `'fever:H cough:M'`.
 */
export interface ConditionDef {
  id: string;
  name: string;
  cui?: string;
  aka: string[];
  sys: string[];
  loc?: string[];
  proc?: string[];
  acuity: Acuity;
  /** How often it is met in primary and urgent care: the differential's prior. */
  prev: Prevalence;
  def?: string;
  for: string;
  against?: string;
  comp?: ComplicationDef[];
}

/** A medication (generic name first; other names, US and brand, as aliases). */
export interface MedicationDef {
  id: string;
  name: string;
  cui?: string;
  aka: string[];
}

/** The medications commonly used for a condition (local ids of both). */
export interface TreatmentDef {
  condition: string;
  meds: string[];
}

/** A question to a patient and the observations (and conditions) its answer tells about. */
export interface QuestionDef {
  id: string;
  content: string;
  obs: string[];
  cond?: string[];
}
