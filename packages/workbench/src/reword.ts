import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { sameSpan } from './entities.ts';

/** Slots and categories that need rewording (spec 1 §4, spec 2 §5). */
export const REWORD_CATEGORIES = [
  'chief_complaints',
  'current_complaint',
  'patient_description',
  'onset',
] as const;
/** One of {@link REWORD_CATEGORIES}. */
export type RewordCategory = (typeof REWORD_CATEGORIES)[number];

/** Original-job type whose follow-up jobs need rewording. */
export const REWORD_ORIGINAL_JOB = 'reword';

/** Reword prompt for a vague patient description: ask for the main symptom (spec 1 §4). */
export const rewordMainSymptomPrompt = (x: string): string =>
  `For ${x} what is the main symptom you are having?`;
/** Reword prompt for a complaint: ask when it started and what comes with it (spec 1 §4). */
export const rewordStartPrompt = (x: string): string =>
  `When did ${x} start? Can you describe any symptoms that happen with ${x}?`;
/** Reword prompt for an onset: ask whether the problem predates it (spec 1 §4). */
export const rewordOngoingPrompt = (x: string): string =>
  `Is this a problem ongoing prior to ${x}?`;

/** Which prompt goes with which category (see README: the spec lists them without pairing). */
export const REWORD_PROMPTS: Record<RewordCategory, (x: string) => string> = {
  patient_description: rewordMainSymptomPrompt,
  chief_complaints: rewordStartPrompt,
  current_complaint: rewordStartPrompt,
  onset: rewordOngoingPrompt,
};

/** Whether a category is one of the reword categories. */
export function isRewordCategory(category: string): category is RewordCategory {
  return (REWORD_CATEGORIES as readonly string[]).includes(category);
}

/** What switches the reword step on besides the slot (spec 2 §5). */
export interface RewordContext {
  slotCode?: string;
  /** The conversation goal is a goal intent. */
  goalIntent?: boolean;
  /** The job metadata's original job type. */
  originalJob?: string;
}

/** Whether submit goes through the reword step: goal intents, reword original jobs, reword slots. */
export function isRewordRequired(context: RewordContext): boolean {
  return (
    context.goalIntent === true ||
    context.originalJob === REWORD_ORIGINAL_JOB ||
    (context.slotCode !== undefined && isRewordCategory(context.slotCode))
  );
}

/**
 * The category an entity is reworded as: a current_complaint with an sx entity at the same span is
 * treated as patient_description (spec 1 §4).
 */
export function effectiveCategory(
  entity: AnnotationEntity,
  entities: readonly AnnotationEntity[],
): string {
  if (
    entity.category === 'current_complaint' &&
    entities.some((other) => other.category === 'sx' && sameSpan(other, entity))
  ) {
    return 'patient_description';
  }
  return entity.category;
}

/** One reword step: the entity, the category it is reworded as and the prompt shown. */
export interface RewordTarget {
  entity: AnnotationEntity;
  category: RewordCategory;
  prompt: string;
}

/**
 * The entities to reword before the real submit, in message order, one per span and category;
 * empty when rewording is not required.
 */
export function rewordTargets(
  entities: readonly AnnotationEntity[],
  context: RewordContext,
): RewordTarget[] {
  if (!isRewordRequired(context)) {
    return [];
  }
  const targets: RewordTarget[] = [];
  const ordered = [...entities].sort((a, b) => a.start - b.start || a.end - b.end);
  for (const entity of ordered) {
    const category = effectiveCategory(entity, entities);
    if (!isRewordCategory(category)) {
      continue;
    }
    if (targets.some((t) => t.category === category && sameSpan(t.entity, entity))) {
      continue;
    }
    targets.push({ entity, category, prompt: REWORD_PROMPTS[category](entity.extract) });
  }
  return targets;
}
