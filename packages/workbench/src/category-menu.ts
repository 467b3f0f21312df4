import {
  categoryLabel,
  HPI_CATEGORIES,
  INTENT_CODES,
  INTENTS,
  INTENTS_MENU_LABEL,
} from '@loopdesk/contracts/category-menus.ts';
import type { IntentContextMenu } from '@loopdesk/contracts/workbench-payloads.ts';
import type { MessageJob } from './job-data.ts';
import { booleanMenu, buildMenu, menuFromContextMenu, type MenuEntry } from './menu.ts';
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

/** Context-menu entries with the category as the code and the fixed label when there is one. */
function relabel(entries: readonly MenuEntry[]): MenuEntry[] {
  return entries.map((entry) =>
    entry.next === undefined
      ? {
          label: categoryLabel(entry.category ?? entry.label),
          category: entry.category ?? entry.label,
        }
      : { label: entry.label, next: relabel(entry.next) },
  );
}

/**
 * The hotkey menu of a message job (spec 1 §4, §9):
 * 1. on the generic screen, a boolean slot's Endorse / Deny (/ Unsure) first;
 * 2. the related entries: the target slot, the related slots, then the derived categories of the
 *    intent's context menu;
 * 3. the 'Intents' submenu (the fixed intents);
 * 4. the categories: the intent's context menu when it has one (its override), else the fixed
 *    HPI categories, leaving out codes already listed;
 * and the other slot specifications the job carries as the 'Slots' submenu, first when the
 * related entries total fewer than 10, else last (workbench `buildMenu`).
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
  const labelOf = (code: string) =>
    specifications.find((s) => s.code === code)?.short_description ?? categoryLabel(code);
  const relatedCodes = [
    ...new Set([
      ...(job.slotSpecification ? [job.slotSpecification.code] : []),
      ...job.relatedSlots,
      ...derivedCategories(contextMenu),
    ]),
  ];
  const related: MenuEntry[] = relatedCodes.map((code) => ({
    label: labelOf(code),
    category: code,
  }));
  const slotList: MenuEntry[] = [
    ...new Set(
      job.relatedSlotSpecifications.map((s) => s.code).filter((c) => !relatedCodes.includes(c)),
    ),
  ].map((code) => ({ label: labelOf(code), category: code }));

  const categories: MenuEntry[] = (
    contextMenu
      ? relabel(menuFromContextMenu(contextMenu.menu))
      : HPI_CATEGORIES.map((c): MenuEntry => ({ label: c.label, category: c.code }))
  ).filter(
    (entry) => entry.next !== undefined || !relatedCodes.includes(entry.category ?? entry.label),
  );
  const intents: MenuEntry = {
    label: INTENTS_MENU_LABEL,
    next: INTENTS.map((intent) => ({ label: intent.label, category: intent.code })),
  };
  const spec = job.slotSpecification;
  const booleans =
    spec && isBooleanSlot(spec) && screen === 'message-annotation' ? booleanMenu(spec) : [];
  return [...booleans, ...buildMenu(related, slotList), intents, ...categories];
}
