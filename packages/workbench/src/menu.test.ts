import { describe, expect, it } from 'vitest';
import {
  booleanOptions,
  buildMenu,
  currentPage,
  menuFromContextMenu,
  openMenu,
  paginate,
  pressKey,
  splitRephraseOptions,
  type MenuEntry,
  type MenuState,
} from './menu.ts';

const entries = (n: number, prefix = 'c'): MenuEntry[] =>
  Array.from({ length: n }, (_, i) => ({ label: `${prefix}${i + 1}` }));

describe('menu paging: up to 9 items a page, hotkeys 1-9 (spec 1 §9)', () => {
  it.each([
    [0, []],
    [1, [1]],
    [9, [9]],
    [10, [9, 1]],
    [18, [9, 9]],
    [20, [9, 9, 2]],
  ])('%i entries make pages of %j', (n, sizes) => {
    const pages = paginate(entries(n));
    expect(pages.map((p) => p.length)).toEqual(sizes);
    for (const page of pages) {
      expect(page.map((item) => item.hotkey)).toEqual(
        ['1', '2', '3', '4', '5', '6', '7', '8', '9'].slice(0, page.length),
      );
    }
  });
});

describe('the slot list goes on the first page only if the related entries total fewer than 10', () => {
  const slots = entries(3, 's');
  it.each([
    [0, 0],
    [8, 0],
    [9, 0],
    [10, 10],
    [15, 15],
  ])('with %i related entries the slot list is entry %i', (n, index) => {
    const menu = buildMenu(entries(n), slots);
    expect(menu).toHaveLength(n + 1);
    expect(menu[index]).toEqual({ label: 'Slots', next: slots });
    const onFirstPage = (paginate(menu)[0] ?? []).some((item) => item.entry.label === 'Slots');
    expect(onFirstPage).toBe(n < 10);
  });

  it('an empty slot list adds nothing', () => {
    expect(buildMenu(entries(2), [])).toEqual(entries(2));
  });
});

describe('keys in the popup (spec 1 §4)', () => {
  const symptoms: MenuEntry = { label: 'Symptoms', next: [{ label: 'Headache', category: 'sx' }] };
  const menu = [symptoms, ...entries(11)];
  const open = openMenu(menu);

  it.each<[string, MenuState, string, ReturnType<typeof pressKey>['effect'], number | null]>([
    ['Space moves to the next page', open, ' ', { type: 'none' }, 1],
    ['Space on the last page cycles to the first', { ...open, page: 1 }, ' ', { type: 'none' }, 0],
    ['Escape closes', open, 'Escape', { type: 'close' }, null],
    [
      'Escape in a submenu goes back one level',
      { stack: [menu, symptoms.next ?? []], page: 0, trail: ['Symptoms'] },
      'Escape',
      { type: 'back' },
      0,
    ],
    [
      'a number with a leaf annotates and closes',
      open,
      '2',
      { type: 'annotate', category: 'c1' },
      null,
    ],
    [
      'a number on page two picks that page’s item',
      { ...open, page: 1 },
      '1',
      { type: 'annotate', category: 'c9' },
      null,
    ],
    ['a number with a submenu keeps the selection and opens it', open, '1', { type: 'submenu' }, 0],
    ['a number with no item does nothing', { ...open, page: 1 }, '9', { type: 'none' }, 1],
    ['0 is a colour key, not a menu item', open, '0', { type: 'none' }, 0],
    ['backtick is a colour key, not a menu item', open, '`', { type: 'none' }, 0],
  ])('%s', (_name, state, key, effect, page) => {
    const outcome = pressKey(state, key);
    expect(outcome.effect).toEqual(effect);
    expect(outcome.state?.page ?? null).toBe(page);
  });

  it('a submenu shows its own items and its leaf annotates with the leaf’s category', () => {
    const inSubmenu = pressKey(open, '1').state;
    expect(inSubmenu && currentPage(inSubmenu).map((i) => i.entry.label)).toEqual(['Headache']);
    expect(inSubmenu && pressKey(inSubmenu, '1')).toEqual({
      state: null,
      effect: { type: 'annotate', category: 'sx' },
    });
  });

  it('a submenu knows where it is: its trail, which Escape shortens', () => {
    const inSubmenu = pressKey(open, '1').state;
    expect(inSubmenu?.trail).toEqual(['Symptoms']);
    const back = inSubmenu && pressKey(inSubmenu, 'Escape').state;
    expect(back?.trail).toEqual([]);
    expect(back && currentPage(back).map((i) => i.entry.label)).toContain('Symptoms');
  });

  it('Space on an empty menu stays on page 0', () => {
    expect(pressKey(openMenu([]), ' ').state?.page).toBe(0);
  });
});

describe('context menu of an intent', () => {
  it('nests sub-categories and appends derived categories not already present', () => {
    const menu = menuFromContextMenu(
      {
        symptom: ['sx', 'associated_sx'],
        history: { past: null, family: ['fhx'] },
        onset: null,
        dx: [],
      },
      ['medication', 'onset'],
    );
    expect(menu).toEqual([
      { label: 'symptom', next: [{ label: 'sx' }, { label: 'associated_sx' }] },
      {
        label: 'history',
        next: [{ label: 'past' }, { label: 'family', next: [{ label: 'fhx' }] }],
      },
      { label: 'onset' },
      { label: 'dx' },
      { label: 'medication' },
    ]);
  });
});

describe('boolean options: Endorse and Deny, Unsure for optional slots (spec 1 §9)', () => {
  it.each([
    ['0..1', ['endorse', 'deny', 'unsure']],
    ['0..*', ['endorse', 'deny', 'unsure']],
    ['1..1', ['endorse', 'deny']],
    [undefined, ['endorse', 'deny']],
  ])('multiplicity %s', (multiplicity, categories) => {
    expect(booleanOptions({ multiplicity }).map((o) => o.category)).toEqual(categories);
  });
});

describe("rephrase options split on '~'", () => {
  it.each([
    ['When did it start?~Where is the pain?', ['When did it start?', 'Where is the pain?']],
    ['Only one', ['Only one']],
    [' a ~~ b ~', ['a', 'b']],
    ['', []],
  ])('%j', (options, expected) => {
    expect(splitRephraseOptions(options)).toEqual(expected);
  });
});
