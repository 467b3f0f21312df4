import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { COLOUR_KEYS } from './menu.ts';

/**
 * The colour keys of spec 1 §9 ("digits 1-9 (0 and backtick for colour)"): they never pick a menu
 * entry; they change how highlights are coloured, on every annotation screen, menu open or not.
 *
 * - `0` colours each category in its own colour (a legend names them), or all in one colour again;
 * - `` ` `` (backtick) shows the colours only: the labels after the highlights are hidden so the
 *   message reads as the patient wrote it, or shown again.
 *
 * The view is the technician's preference: it stays from job to job.
 */
export interface HighlightView {
  /** Each category in its own colour (true) or all highlights in one colour (false). */
  readonly byCategory: boolean;
  /** Whether the labels (with their delete buttons) follow the highlights. */
  readonly labels: boolean;
}

/** The view a technician starts with: one colour, labels shown. */
export const DEFAULT_HIGHLIGHT_VIEW: HighlightView = { byCategory: false, labels: true };

/** Key that toggles colouring by category. */
export const COLOUR_BY_CATEGORY_KEY = '0';
/** Key that toggles the labels (colour only). */
export const COLOUR_ONLY_KEY = '`';

/** Number of category colours; categories beyond it reuse them in turn. */
export const CATEGORY_COLOUR_COUNT = 8;

/** Whether a key is one of the colour keys. */
export function isColourKey(key: string): boolean {
  return COLOUR_KEYS.includes(key);
}

/** The view after a key: `0` toggles colour by category, backtick toggles the labels; else null. */
export function pressColourKey(view: HighlightView, key: string): HighlightView | null {
  if (key === COLOUR_BY_CATEGORY_KEY) {
    return { ...view, byCategory: !view.byCategory };
  }
  if (key === COLOUR_ONLY_KEY) {
    return { ...view, labels: !view.labels };
  }
  return null;
}

/**
 * The colour (0 to {@link CATEGORY_COLOUR_COUNT} - 1) of each category in a message: the colours
 * already given (`given`, from the message's earlier annotations) stay, and a new category takes
 * the next colour, in the order the categories appear. So adding or deleting an annotation never
 * changes the colour of a category already shown, and the first eight categories are distinct.
 * Returns `given` itself when no category is new.
 */
export function categoryColours(
  entities: readonly Pick<AnnotationEntity, 'category'>[],
  given: ReadonlyMap<string, number> = new Map(),
): ReadonlyMap<string, number> {
  let colours: Map<string, number> | null = null;
  for (const { category } of entities) {
    if (!given.has(category) && !colours?.has(category)) {
      colours ??= new Map(given);
      colours.set(category, colours.size % CATEGORY_COLOUR_COUNT);
    }
  }
  return colours ?? given;
}

/**
 * The entity whose colour a piece of text takes when several cover it: the innermost (shortest
 * span; on a tie, the later one, drawn last). Null when none covers it.
 */
export function innermostEntity(
  entities: readonly Pick<AnnotationEntity, 'start' | 'end'>[],
  indexes: readonly number[],
): number | null {
  let best: number | null = null;
  for (const index of indexes) {
    const entity = entities[index];
    if (entity === undefined) {
      continue;
    }
    const current = best === null ? undefined : entities[best];
    if (current === undefined || entity.end - entity.start <= current.end - current.start) {
      best = index;
    }
  }
  return best;
}
