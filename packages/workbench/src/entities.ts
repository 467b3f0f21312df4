import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';

/** The category code of an intent annotation (spec 2 §3 category codes). */
export const INTENT_CATEGORY = 'intent';

/** A span of message text: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** Whether two spans cover exactly the same characters. */
export function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

/** Whether two spans share at least one character (touching spans do not overlap). */
export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Whether `outer` fully contains `inner` (equal spans contain each other). */
export function contains(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/**
 * Whether a category names an intent: the code 'intent', or one of the intent names the job's
 * intent menu offers.
 */
export function isIntentCategory(
  category: string,
  intentCategories: readonly string[] = [],
): boolean {
  return category === INTENT_CATEGORY || intentCategories.includes(category);
}

/**
 * Adds an entity unless one with the same span and category already exists; returns a new list
 * ordered by start, then end.
 */
export function addEntity(
  entities: readonly AnnotationEntity[],
  entity: AnnotationEntity,
): AnnotationEntity[] {
  if (entities.some((e) => sameSpan(e, entity) && e.category === entity.category)) {
    return [...entities];
  }
  return [...entities, entity].sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Removes every entity whose extract equals the highlighted entity's extract (spec 1 §4). */
export function removeEntitiesSharingExtract(
  entities: readonly AnnotationEntity[],
  highlighted: Pick<AnnotationEntity, 'extract'>,
): AnnotationEntity[] {
  return entities.filter((e) => e.extract !== highlighted.extract);
}

/** Clear: removes all annotations (spec 1 §4). */
export function clearEntities(): AnnotationEntity[] {
  return [];
}

/**
 * Undo of a delete or Clear (issue 20): puts the removed entities back into the current list
 * (those still there are not doubled), ordered by start, then end, as `addEntity` orders them.
 */
export function restoreEntities(
  current: readonly AnnotationEntity[],
  removed: readonly AnnotationEntity[],
): AnnotationEntity[] {
  return removed.reduce<AnnotationEntity[]>(
    (list, entity) => addEntity(list, entity),
    [...current],
  );
}
