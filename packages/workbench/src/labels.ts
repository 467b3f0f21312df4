import { categoryLabel } from '@loopdesk/contracts/category-menus.ts';
import type {
  AnnotationEntity,
  SlotSpecification,
} from '@loopdesk/contracts/workbench-payloads.ts';

/**
 * Human words on the annotation screens (issue 20, docs/decisions.md "Usability (issue 20): human
 * words"): a category shows its slot's short_description, else the fixed label of the contracts,
 * else its code made readable; every label is in sentence case (first letter capital, the rest as
 * written), in menus and on highlights alike.
 */

/** Sentence case: underscores become spaces, the first letter is a capital, the rest as written. */
export function sentenceCase(text: string): string {
  const words = text.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  return words.charAt(0).toLocaleUpperCase() + words.slice(1);
}

/** The readable name of a category code, from the job's slot specifications when they name it. */
export function categoryName(
  code: string,
  specifications: readonly Pick<SlotSpecification, 'code' | 'short_description'>[] = [],
): string {
  const described = specifications.find((s) => s.code === code)?.short_description?.trim();
  if (described) {
    return sentenceCase(described);
  }
  return sentenceCase(categoryLabel(code));
}

/** The label after a highlight: its category's name, and a boolean answer's presence. */
export function highlightLabel(
  entity: Pick<AnnotationEntity, 'category' | 'presence'>,
  specifications: readonly Pick<SlotSpecification, 'code' | 'short_description'>[] = [],
): string {
  const name = categoryName(entity.category, specifications);
  return entity.presence === undefined ? name : `${name}: ${sentenceCase(entity.presence)}`;
}
