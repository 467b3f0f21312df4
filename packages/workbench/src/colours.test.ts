import { describe, expect, it } from 'vitest';
import {
  categoryColours,
  CATEGORY_COLOUR_COUNT,
  DEFAULT_HIGHLIGHT_VIEW,
  innermostEntity,
  isColourKey,
  pressColourKey,
  type HighlightView,
} from './colours.ts';
import { MENU_HOTKEYS, openMenu, pressKey } from './menu.ts';

describe('the colour keys, 0 and backtick (spec 1 §9)', () => {
  it.each<[HighlightView, string, HighlightView | null]>([
    [DEFAULT_HIGHLIGHT_VIEW, '0', { byCategory: true, labels: true }],
    [{ byCategory: true, labels: true }, '0', { byCategory: false, labels: true }],
    [DEFAULT_HIGHLIGHT_VIEW, '`', { byCategory: false, labels: false }],
    [{ byCategory: true, labels: false }, '`', { byCategory: true, labels: true }],
    [DEFAULT_HIGHLIGHT_VIEW, '1', null],
    [DEFAULT_HIGHLIGHT_VIEW, '~', null],
    [DEFAULT_HIGHLIGHT_VIEW, ' ', null],
  ])('from %j the key %j gives %j', (view, key, expected) => {
    expect(pressColourKey(view, key)).toEqual(expected);
  });

  it('are exactly 0 and backtick, and never menu hotkeys: an open menu stays as it was', () => {
    expect(['0', '`'].every(isColourKey)).toBe(true);
    expect(MENU_HOTKEYS.some(isColourKey)).toBe(false);
    const menu = openMenu([{ label: 'onset' }]);
    for (const key of ['0', '`']) {
      expect(pressKey(menu, key)).toEqual({ state: menu, effect: { type: 'none' } });
    }
  });
});

describe('category colours', () => {
  const e = (category: string) => ({ category });

  it('number the categories in the order they first appear', () => {
    expect([...categoryColours([e('sx'), e('onset'), e('sx'), e('hpi')])]).toEqual([
      ['sx', 0],
      ['onset', 1],
      ['hpi', 2],
    ]);
  });

  it('keep the colours already given, wherever a new annotation lands, and after a delete', () => {
    const before = categoryColours([e('sx'), e('onset')]);
    // A new category annotated before the others (entities are kept in message order).
    const after = categoryColours([e('location'), e('sx'), e('onset')], before);
    expect([...after]).toEqual([
      ['sx', 0],
      ['onset', 1],
      ['location', 2],
    ]);
    // Deleting the sx annotations frees no colour: onset keeps its own.
    expect(categoryColours([e('onset'), e('location')], after)).toBe(after);
  });

  it(`reuse the ${CATEGORY_COLOUR_COUNT} colours in turn beyond them`, () => {
    const many = Array.from({ length: CATEGORY_COLOUR_COUNT + 2 }, (_, i) => e(`c${i}`));
    const colours = categoryColours(many);
    expect(new Set([...colours.values()].slice(0, CATEGORY_COLOUR_COUNT)).size).toBe(
      CATEGORY_COLOUR_COUNT,
    );
    expect(colours.get(`c${CATEGORY_COLOUR_COUNT}`)).toBe(0);
    expect(colours.get(`c${CATEGORY_COLOUR_COUNT + 1}`)).toBe(1);
  });

  it('none for no annotations', () => {
    expect(categoryColours([]).size).toBe(0);
  });
});

describe('the innermost entity gives nested text its colour', () => {
  const spans = [
    { start: 0, end: 20 },
    { start: 5, end: 10 },
    { start: 5, end: 10 },
  ];
  it.each<[number[], number | null]>([
    [[], null],
    [[0], 0],
    [[0, 1], 1],
    // Equal spans: the later one.
    [[0, 1, 2], 2],
    // An index with no entity is skipped.
    [[7, 0], 0],
  ])('of %j it is %j', (indexes, expected) => {
    expect(innermostEntity(spans, indexes)).toBe(expected);
  });
});
