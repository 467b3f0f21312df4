import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { isIntentCategory, sameSpan } from './entities.ts';

/** Slot codes answered by a `current_complaint` annotation (spec 1 §5). */
export const CURRENT_COMPLAINT_SLOTS: readonly string[] = ['current_complaint', 'chief_complaints'];

/** What decides whether the target slot is annotated. */
export interface TargetContext {
  /** Code of the slot the message answers. */
  slotCode: string;
  /** Extra categories from the intent's context menu (`derived`); each one counts as the target. */
  derived?: readonly string[];
  /** Intent names the job's menu offers; entities of these categories count as intents. */
  intentCategories?: readonly string[];
}

/** The intent entities among the annotations. */
export function intentEntities(
  entities: readonly AnnotationEntity[],
  intentCategories: readonly string[] = [],
): AnnotationEntity[] {
  return entities.filter((e) => isIntentCategory(e.category, intentCategories));
}

/**
 * Whether the annotations mark the target slot (spec 1 §5, spec 2 §5): the slot code; for
 * current_complaint/chief_complaints a current_complaint; a derived category; or exactly one
 * intent sharing its span with a non-intent entity. More than one intent is never valid.
 */
export function isTargetAnnotated(
  entities: readonly AnnotationEntity[],
  context: TargetContext,
): boolean {
  const intentNames = context.intentCategories ?? [];
  const intents = intentEntities(entities, intentNames);
  if (intents.length > 1) {
    return false;
  }
  const derived = context.derived ?? [];
  const byCategory = entities.some(
    (e) =>
      e.category === context.slotCode ||
      (CURRENT_COMPLAINT_SLOTS.includes(context.slotCode) && e.category === 'current_complaint') ||
      derived.includes(e.category),
  );
  if (byCategory) {
    return true;
  }
  const [intent] = intents;
  return (
    intent !== undefined &&
    entities.some((e) => !isIntentCategory(e.category, intentNames) && sameSpan(e, intent))
  );
}

/** Picks the chosen intent: the first containing '+' takes priority, else the first one. */
export function chooseIntent(intents: readonly string[]): string | undefined {
  return intents.find((intent) => intent.includes('+')) ?? intents[0];
}
