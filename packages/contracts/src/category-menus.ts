/**
 * The fixed category menus of the annotation screens (spec 1 §9: "The category menus are a fixed
 * set; their contents are not shown"). The spec names the codes patient_description, onset,
 * current_complaint, chief_complaint(s), intent, sx, dx, associated_sx and nlp_sx; the rest of the
 * history-of-present-illness set is the usual clinical one (site, character, severity, timing,
 * aggravating and relieving factors …). An intent's context menu
 * (`GET /internal/quinn/intents/{intent}/_context_menu`) replaces the HPI categories for that
 * intent and adds its derived categories (docs/decisions.md "Category menus").
 */

/** One category of a menu: the code annotations carry and the label the menu shows. */
export interface CategoryDefinition {
  readonly code: string;
  readonly label: string;
}

/** The history-of-present-illness categories, in menu order (most used first). */
export const HPI_CATEGORIES = [
  { code: 'chief_complaints', label: 'Chief complaint' },
  { code: 'current_complaint', label: 'Current complaint' },
  { code: 'patient_description', label: 'Patient description' },
  { code: 'onset', label: 'Onset' },
  { code: 'sx', label: 'Symptom' },
  { code: 'associated_sx', label: 'Associated symptom' },
  { code: 'location', label: 'Location' },
  { code: 'duration', label: 'Duration' },
  { code: 'character', label: 'Character' },
  { code: 'severity', label: 'Severity' },
  { code: 'timing', label: 'Timing' },
  { code: 'aggravating_factors', label: 'Aggravating factors' },
  { code: 'relieving_factors', label: 'Relieving factors' },
  { code: 'dx', label: 'Diagnosis' },
  { code: 'medication', label: 'Medication' },
  { code: 'allergy', label: 'Allergy' },
] as const satisfies readonly CategoryDefinition[];

/** Code of one of {@link HPI_CATEGORIES}. */
export type HpiCategory = (typeof HPI_CATEGORIES)[number]['code'];

/**
 * Categories the language services add on their own (never offered in a menu): `nlp_sx` is a
 * symptom found by entity recognition; `chief_complaint` is the older spelling of
 * chief_complaints. Both are hidden by the annotate-only purpose (spec 1 §5).
 */
export const MACHINE_CATEGORIES = ['nlp_sx', 'chief_complaint'] as const;

/** An intent a patient message can carry (the agenda of an utterance). */
export interface IntentDefinition extends CategoryDefinition {
  /**
   * A goal intent sets the conversation's goal, and answers given under it are reworded before
   * the real submit (spec 1 §4, spec 2 §5 "Rewording is required for goal intents").
   */
  readonly goal: boolean;
}

/**
 * The intents, in menu order. An intent whose code contains '+' combines two and takes priority
 * as the chosen intent (spec 1 §5).
 */
export const INTENTS = [
  { code: 'hpi', label: 'Describe a symptom', goal: true },
  { code: 'urgent+hpi', label: 'Urgent symptom', goal: true },
  { code: 'repeat_prescription', label: 'Repeat prescription', goal: false },
  { code: 'book_appointment', label: 'Book an appointment', goal: false },
  { code: 'test_results', label: 'Test results', goal: false },
  { code: 'sick_note', label: 'Sick note', goal: false },
  { code: 'referral', label: 'Referral', goal: false },
  { code: 'medical_advice', label: 'Medical advice', goal: false },
  { code: 'admin_query', label: 'Admin question', goal: false },
] as const satisfies readonly IntentDefinition[];

/** Code of one of {@link INTENTS}. */
export type IntentCode = (typeof INTENTS)[number]['code'];

/** The intent codes, for the rules that tell intents from other categories. */
export const INTENT_CODES: readonly string[] = INTENTS.map((intent) => intent.code);

/** The goal intents' codes. */
export const GOAL_INTENT_CODES: readonly string[] = INTENTS.filter((intent) => intent.goal).map(
  (intent) => intent.code,
);

/** Label of the submenu that lists the intents. */
export const INTENTS_MENU_LABEL = 'Intents';

/** The label of a category or intent code: its definition's, else the code itself. */
export function categoryLabel(code: string): string {
  const known: readonly CategoryDefinition[] = [...HPI_CATEGORIES, ...INTENTS];
  return known.find((definition) => definition.code === code)?.label ?? code;
}
