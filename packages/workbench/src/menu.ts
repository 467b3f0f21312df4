import type {
  ContextMenuTree,
  Presence,
  SlotSpecification,
} from '@loopdesk/contracts/workbench-payloads.ts';

/** Items on one menu page (spec 1 §9). */
export const MENU_PAGE_SIZE = 9;
/** Hotkeys of a page's items, in order (spec 1 §9). */
export const MENU_HOTKEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
/** Key that cycles menu pages (spec 1 §4). */
export const NEXT_PAGE_KEY = ' ';
/** Key that closes the popup (spec 1 §4). */
export const CLOSE_KEY = 'Escape';
/** Keys reserved for colour, never menu items (spec 1 §9); what they do is in colours.ts. */
export const COLOUR_KEYS: readonly string[] = ['0', '`'];
/** The slot list moves off the first page when related entries reach this many (spec 1 §9). */
export const SLOT_LIST_FIRST_PAGE_LIMIT = 10;
/** Label of the submenu item that holds the slot list. */
export const SLOT_LIST_LABEL = 'Slots';
/** Separator of rephrase options (spec 1 §3, §9). */
export const REPHRASE_SEPARATOR = '~';

/** A menu entry: with `next` it opens a submenu, otherwise it annotates with its category. */
export interface MenuEntry {
  label: string;
  /** Category the entry annotates with; defaults to the label. */
  category?: string;
  /** Presence the annotation gets (the Endorse/Deny/Unsure entries of a boolean slot). */
  presence?: Presence;
  next?: MenuEntry[];
}

/** An entry on a page with its hotkey. */
export interface MenuItem {
  hotkey: (typeof MENU_HOTKEYS)[number];
  entry: MenuEntry;
}

/** Splits entries into pages of up to 9, numbering each page's items 1-9. */
export function paginate(entries: readonly MenuEntry[]): MenuItem[][] {
  const pages: MenuItem[][] = [];
  entries.forEach((entry, index) => {
    const pageIndex = Math.floor(index / MENU_PAGE_SIZE);
    const hotkey = MENU_HOTKEYS[index % MENU_PAGE_SIZE] ?? '1';
    (pages[pageIndex] ??= []).push({ hotkey, entry });
  });
  return pages;
}

/**
 * Orders the top-level menu: the slot list is one submenu entry, first (so on page 1) when the
 * related entries total fewer than 10, otherwise after them.
 */
export function buildMenu(
  related: readonly MenuEntry[],
  slotList: readonly MenuEntry[],
  slotListLabel: string = SLOT_LIST_LABEL,
): MenuEntry[] {
  if (slotList.length === 0) {
    return [...related];
  }
  const slotEntry: MenuEntry = { label: slotListLabel, next: [...slotList] };
  return related.length < SLOT_LIST_FIRST_PAGE_LIMIT
    ? [slotEntry, ...related]
    : [...related, slotEntry];
}

/** Turns an intent's context menu (nested map plus derived categories) into menu entries. */
export function menuFromContextMenu(
  tree: ContextMenuTree,
  derived: readonly string[] = [],
): MenuEntry[] {
  const entries = Object.entries(tree).map(([label, children]): MenuEntry => {
    if (Array.isArray(children)) {
      return children.length > 0
        ? { label, next: children.map((child) => ({ label: child })) }
        : { label };
    }
    if (children !== null && Object.keys(children).length > 0) {
      return { label, next: menuFromContextMenu(children) };
    }
    return { label };
  });
  const present = new Set(entries.map((e) => e.label));
  return [...entries, ...derived.filter((d) => !present.has(d)).map((label) => ({ label }))];
}

/** Whether a slot is optional: its multiplicity's lower bound is 0 (absent means required). */
export function isOptionalSlot(slot: Pick<SlotSpecification, 'multiplicity'>): boolean {
  return slot.multiplicity?.startsWith('0..') === true;
}

/** The boolean options Endorse and Deny, plus Unsure for optional slots (spec 1 §9). */
export function booleanOptions(slot: Pick<SlotSpecification, 'multiplicity'>): MenuEntry[] {
  const options: { label: string; category: Presence }[] = [
    { label: 'Endorse', category: 'endorse' },
    { label: 'Deny', category: 'deny' },
  ];
  if (isOptionalSlot(slot)) {
    options.push({ label: 'Unsure', category: 'unsure' });
  }
  return options;
}

/**
 * The boolean options as menu entries of a boolean slot (spec 1 §9): each annotates the selection
 * with the slot's code and its presence; Unsure only for optional slots.
 */
export function booleanMenu(slot: Pick<SlotSpecification, 'code' | 'multiplicity'>): MenuEntry[] {
  return booleanOptions(slot).map((option) => ({
    label: option.label,
    category: slot.code,
    presence: option.category as Presence,
  }));
}

/** Splits the rephrase options string on '~', trimming and dropping empty pieces. */
export function splitRephraseOptions(options: string): string[] {
  return options
    .split(REPHRASE_SEPARATOR)
    .map((option) => option.trim())
    .filter((option) => option !== '');
}

/** An open popup: the stack of menus (top is shown) and the page shown. */
export interface MenuState {
  stack: MenuEntry[][];
  page: number;
  /** Labels of the submenus opened, outermost first: where the shown menu is (empty at the top). */
  trail?: string[];
}

/**
 * What a key or click did: nothing, opened a submenu (selection kept), went back one level,
 * annotated, or closed.
 */
export type MenuEffect =
  | { type: 'none' }
  | { type: 'submenu' }
  | { type: 'back' }
  | { type: 'annotate'; category: string; presence?: Presence }
  | { type: 'close' };

/** The popup after an input (`null` once closed) and its effect. */
export interface MenuOutcome {
  state: MenuState | null;
  effect: MenuEffect;
}

/** Opens the popup on the first page of a menu. */
export function openMenu(entries: readonly MenuEntry[]): MenuState {
  return { stack: [[...entries]], page: 0, trail: [] };
}

/** The pages of the menu shown on top of the stack. */
export function menuPages(state: MenuState): MenuItem[][] {
  return paginate(state.stack[state.stack.length - 1] ?? []);
}

/** The items of the page shown. */
export function currentPage(state: MenuState): MenuItem[] {
  return menuPages(state)[state.page] ?? [];
}

/** Chooses an entry: a submenu keeps the selection and opens; a leaf annotates and closes. */
export function chooseEntry(state: MenuState, entry: MenuEntry): MenuOutcome {
  if (entry.next !== undefined) {
    return {
      state: {
        stack: [...state.stack, entry.next],
        page: 0,
        trail: [...menuTrail(state), entry.label],
      },
      effect: { type: 'submenu' },
    };
  }
  const category = entry.category ?? entry.label;
  return {
    state: null,
    effect:
      entry.presence === undefined
        ? { type: 'annotate', category }
        : { type: 'annotate', category, presence: entry.presence },
  };
}

/** Labels of the submenus opened, outermost first (empty at the top level). */
export function menuTrail(state: MenuState): string[] {
  return state.trail ?? [];
}

/** Back one level: the menu that opened the shown submenu, on its first page. */
export function backOneLevel(state: MenuState): MenuState {
  return { stack: state.stack.slice(0, -1), page: 0, trail: menuTrail(state).slice(0, -1) };
}

/**
 * Handles a key: Space cycles pages; Escape goes back one level in a submenu and closes the popup
 * at the top level (issue 20 "one keyboard model"); 1-9 choose the item with that hotkey.
 */
export function pressKey(state: MenuState, key: string): MenuOutcome {
  if (key === NEXT_PAGE_KEY) {
    const count = menuPages(state).length;
    return {
      state: { ...state, page: count === 0 ? 0 : (state.page + 1) % count },
      effect: { type: 'none' },
    };
  }
  if (key === CLOSE_KEY) {
    return state.stack.length > 1
      ? { state: backOneLevel(state), effect: { type: 'back' } }
      : { state: null, effect: { type: 'close' } };
  }
  const item = currentPage(state).find((candidate) => candidate.hotkey === key);
  return item === undefined ? { state, effect: { type: 'none' } } : chooseEntry(state, item.entry);
}
