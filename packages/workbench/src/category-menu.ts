import {
  HPI_CATEGORIES,
  INTENT_CODES,
  INTENTS,
  INTENTS_MENU_LABEL,
} from '@loopdesk/contracts/category-menus.ts';
import type { IntentContextMenu } from '@loopdesk/contracts/workbench-payloads.ts';
import type { MessageJob } from './job-data.ts';
import { categoryName, sentenceCase } from './labels.ts';
import {
  booleanMenu,
  menuFromContextMenu,
  SLOT_LIST_FIRST_PAGE_LIMIT,
  SLOT_LIST_LABEL,
  type MenuEntry,
} from './menu.ts';
import type { SubmitScreen } from './validation.ts';
import { isBooleanSlot } from './validation.ts';

/**
 * Which annotation screen shows a message job, and so which wording its rules use (README
 * decision 7): a job with a purpose gets the generic screen (spec 1 §2 "Annotation screen"); a
 * job without one came from the older contract and gets the older screen (endorses/denies toggle,
 * patient unsure); an exception job gets the exception panel's wording (spec 2).
 */
export function annotationScreenOf(
  job: Pick<MessageJob, 'purpose'>,
  exception = false,
): SubmitScreen {
  if (exception) {
    return 'exception-annotation';
  }
  return job.purpose === undefined ? 'legacy-annotation' : 'message-annotation';
}

/** The categories that count as intents in a job: the fixed intents (contracts). */
export function intentCategoriesOf(): readonly string[] {
  return INTENT_CODES;
}

/** The derived categories of an intent's context menu (each counts as the target). */
export function derivedCategories(contextMenu: IntentContextMenu | null | undefined): string[] {
  return contextMenu ? [...contextMenu.derived] : [];
}

/** Context-menu entries with the category as the code and a readable label. */
function relabel(entries: readonly MenuEntry[], nameOf: (code: string) => string): MenuEntry[] {
  return entries.map((entry) =>
    entry.next === undefined
      ? {
          label: nameOf(entry.category ?? entry.label),
          category: entry.category ?? entry.label,
        }
      : { label: sentenceCase(entry.label), next: relabel(entry.next, nameOf) },
  );
}

/** Where each fixed category stands in the one order of the menus (the HPI order). */
const CATALOGUE_RANK: ReadonlyMap<string, number> = new Map(
  HPI_CATEGORIES.map((category, index) => [category.code, index]),
);

/**
 * One relative order for the entries of every menu (issue 20 "steady hotkeys"): categories the
 * fixed set does not know (a job's own slots, an intent's own categories) first, by name; then the
 * fixed categories in their fixed order; then an intent's submenus, by name. So the same entries
 * offered get the same digits, whichever of them a job names as related.
 */
export function steadyOrder(entries: readonly MenuEntry[]): MenuEntry[] {
  const group = (entry: MenuEntry): number => {
    if (entry.next !== undefined) {
      return 2;
    }
    return CATALOGUE_RANK.has(entry.category ?? entry.label) ? 1 : 0;
  };
  const byName = (a: MenuEntry, b: MenuEntry) =>
    a.label.localeCompare(b.label, 'en', { numeric: true }) ||
    (a.category ?? '').localeCompare(b.category ?? '', 'en');
  return [...entries].sort((a, b) => {
    const byGroup = group(a) - group(b);
    if (byGroup !== 0) {
      return byGroup;
    }
    if (group(a) === 1) {
      return (
        (CATALOGUE_RANK.get(a.category ?? a.label) ?? 0) -
        (CATALOGUE_RANK.get(b.category ?? b.label) ?? 0)
      );
    }
    return byName(a, b);
  });
}

/**
 * The hotkey menu of a message job (spec 1 §4, §9):
 * 1. on the generic screen, a boolean slot's Endorse / Deny (/ Unsure) first;
 * 2. the other slot specifications the job carries as the 'Slots' submenu, when the related
 *    entries (the target slot, the related slots, the derived categories of the intent's context
 *    menu) total fewer than 10, so that it is on page 1 (spec 1 §9);
 * 3. the categories, in one steady order ({@link steadyOrder}): the related entries and the
 *    intent's context menu when it has one (its override), else the fixed HPI categories;
 * 4. the 'Intents' submenu (the fixed intents);
 * 5. the 'Slots' submenu when the related entries total 10 or more.
 * The related entries are no longer moved to the front: that moved every other digit from job to
 * job (issue 20 "steady hotkeys", docs/decisions.md).
 */
export function messageMenu(
  job: MessageJob,
  contextMenu: IntentContextMenu | null = null,
  screen: SubmitScreen = annotationScreenOf(job),
): MenuEntry[] {
  const specifications = [
    ...(job.slotSpecification ? [job.slotSpecification] : []),
    ...job.relatedSlotSpecifications,
  ];
  const nameOf = (code: string) => categoryName(code, specifications);
  const relatedCodes = [
    ...new Set([
      ...(job.slotSpecification ? [job.slotSpecification.code] : []),
      ...job.relatedSlots,
      ...derivedCategories(contextMenu),
    ]),
  ];
  const related: MenuEntry[] = relatedCodes.map((code) => ({
    label: nameOf(code),
    category: code,
  }));
  const slotList: MenuEntry[] = steadyOrder(
    [
      ...new Set(
        job.relatedSlotSpecifications.map((s) => s.code).filter((c) => !relatedCodes.includes(c)),
      ),
    ].map((code) => ({ label: nameOf(code), category: code })),
  );

  const categories: MenuEntry[] = (
    contextMenu
      ? relabel(menuFromContextMenu(contextMenu.menu), nameOf)
      : HPI_CATEGORIES.map((c): MenuEntry => ({ label: nameOf(c.code), category: c.code }))
  ).filter(
    (entry) => entry.next !== undefined || !relatedCodes.includes(entry.category ?? entry.label),
  );
  const intents: MenuEntry = {
    label: INTENTS_MENU_LABEL,
    next: INTENTS.map((intent) => ({ label: sentenceCase(intent.label), category: intent.code })),
  };
  const spec = job.slotSpecification;
  const booleans =
    spec && isBooleanSlot(spec) && screen === 'message-annotation' ? booleanMenu(spec) : [];
  const ordered = steadyOrder([...related, ...categories]);
  const slotsEntry: MenuEntry[] =
    slotList.length === 0 ? [] : [{ label: SLOT_LIST_LABEL, next: slotList }];
  return related.length < SLOT_LIST_FIRST_PAGE_LIMIT
    ? [...booleans, ...slotsEntry, ...ordered, intents]
    : [...booleans, ...ordered, intents, ...slotsEntry];
}
