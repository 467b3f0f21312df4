import { CATEGORY_COLOUR_COUNT } from '@loopdesk/workbench/colours.ts';

/**
 * The category colours (the colour key 0, spec 1 §9): light tones that read on the dark theme,
 * with black label text. Index = the category's colour from `categoryColours`.
 */
export const CATEGORY_COLOURS: readonly string[] = [
  '#90caf9',
  '#a5d6a7',
  '#ffcc80',
  '#ce93d8',
  '#80deea',
  '#f48fb1',
  '#fff59d',
  '#bcaaa4',
];
if (CATEGORY_COLOURS.length !== CATEGORY_COLOUR_COUNT) {
  throw new Error('CATEGORY_COLOURS must hold CATEGORY_COLOUR_COUNT colours');
}

/** `#rrggbb` at an opacity, as rgba(). */
function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** Style rules of the category colours: one per colour, switched on by the root's attribute. */
export const CATEGORY_COLOUR_RULES = Object.fromEntries(
  CATEGORY_COLOURS.flatMap((colour, index) => [
    [
      `&[data-colours="category"] mark[data-colour="${index}"]`,
      { backgroundColor: withAlpha(colour, 0.22), borderColor: colour },
    ],
    [
      `&[data-colours="category"] mark[data-colour="${index}"][data-deep]`,
      { backgroundColor: withAlpha(colour, 0.4) },
    ],
    [
      `&[data-colours="category"] .annotation-chip[data-colour="${index}"]`,
      { backgroundColor: colour, color: 'rgba(0, 0, 0, 0.87)' },
    ],
  ]),
);
