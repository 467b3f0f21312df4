import type { AgreementScores } from '@loopdesk/contracts/analytics.ts';

/**
 * Agreement between the first answer of a sampled federated job and its second, unseen answer
 * (issue 16, docs/analytics.md "Agreement"). Only categories and counts leave this file: the
 * answers' text (the entities' extracts) is read to compare and then dropped.
 *
 * - A span is an entity of the answer: (start, end, category). Two answers share a span when all
 *   three are equal. Span-level F1 over a set of pairs is the micro F1:
 *   2 × Σ matched ÷ (Σ first spans + Σ second spans), null when neither marked any span.
 * - Kappa compares categories: every span boundary (start, end) either technician marked is an
 *   item; each technician's category for it is the one they gave ('' when they marked none there;
 *   several on the same boundary are joined sorted with '|'). Cohen's kappa over the pooled items
 *   is (pₒ − pₑ) ÷ (1 − pₑ), pₒ the share of items with the same category, pₑ the chance
 *   agreement Σ_c p_first(c) × p_second(c); null without items or when pₑ = 1.
 * - The outcome differs when the submission types or the actions differ (an exception against
 *   an annotation, say).
 */

export interface Comparison {
  readonly firstSpans: number;
  readonly secondSpans: number;
  readonly matchedSpans: number;
  /** [first category, second category] per span boundary either marked. */
  readonly categoryPairs: readonly (readonly [string, string])[];
  readonly outcomeDiffers: boolean;
}

interface Span {
  readonly start: number;
  readonly end: number;
  readonly category: string;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** The spans of a stored result `{type, data}` (data.entities), malformed ones left out. */
function spansOf(result: unknown): Span[] {
  const entities = record(record(result).data).entities;
  if (!Array.isArray(entities)) {
    return [];
  }
  return entities.flatMap((entity) => {
    const e = record(entity);
    return typeof e.start === 'number' &&
      typeof e.end === 'number' &&
      typeof e.category === 'string'
      ? [{ start: e.start, end: e.end, category: e.category }]
      : [];
  });
}

/** The submission type and action of a stored result. */
function outcomeOf(result: unknown): string {
  const r = record(result);
  const action = record(r.data).action;
  return `${typeof r.type === 'string' ? r.type : ''}/${typeof action === 'string' ? action : ''}`;
}

export function compareAnswers(first: unknown, second: unknown): Comparison {
  const key = (s: Span) => `${s.start}:${s.end}:${s.category}`;
  const a = new Map(spansOf(first).map((s) => [key(s), s]));
  const b = new Map(spansOf(second).map((s) => [key(s), s]));
  const matched = [...a.keys()].filter((k) => b.has(k)).length;
  const boundaries = new Map<string, { first: string[]; second: string[] }>();
  const add = (spans: Iterable<Span>, side: 'first' | 'second') => {
    for (const s of spans) {
      const at = `${s.start}:${s.end}`;
      const entry = boundaries.get(at) ?? { first: [], second: [] };
      entry[side].push(s.category);
      boundaries.set(at, entry);
    }
  };
  add(a.values(), 'first');
  add(b.values(), 'second');
  const label = (categories: string[]) => [...categories].sort().join('|');
  const categoryPairs = [...boundaries.keys()].sort().map((at) => {
    const entry = boundaries.get(at) ?? { first: [], second: [] };
    return [label(entry.first), label(entry.second)] as const;
  });
  return {
    firstSpans: a.size,
    secondSpans: b.size,
    matchedSpans: matched,
    categoryPairs,
    outcomeDiffers: outcomeOf(first) !== outcomeOf(second),
  };
}

export const roundScore = (value: number) => Math.round(value * 10000) / 10000;
const round = roundScore;

/** Span-level F1 and Cohen's kappa over a set of compared pairs. */
export function scores(
  pairs: readonly Pick<
    Comparison,
    'firstSpans' | 'secondSpans' | 'matchedSpans' | 'categoryPairs'
  >[],
): AgreementScores {
  let matched = 0;
  let spans = 0;
  const items: (readonly [string, string])[] = [];
  for (const pair of pairs) {
    matched += pair.matchedSpans;
    spans += pair.firstSpans + pair.secondSpans;
    items.push(...pair.categoryPairs);
  }
  return {
    samples: pairs.length,
    f1: spans > 0 ? round((2 * matched) / spans) : null,
    items: items.length,
    kappa: kappa(items),
  };
}

/** Cohen's kappa of two raters' labels of the same items; null when undefined. */
export function kappa(items: readonly (readonly [string, string])[]): number | null {
  return kappaOfCounts(items.map(([a, b]) => [a, b, 1] as const));
}

/** Cohen's kappa from the count of items per (first label, second label); null when undefined. */
export function kappaOfCounts(
  counts: readonly (readonly [string, string, number])[],
): number | null {
  let n = 0;
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let agreed = 0;
  for (const [a, b, items] of counts) {
    n += items;
    first.set(a, (first.get(a) ?? 0) + items);
    second.set(b, (second.get(b) ?? 0) + items);
    if (a === b) {
      agreed += items;
    }
  }
  if (n === 0) {
    return null;
  }
  const observed = agreed / n;
  let chance = 0;
  for (const [category, count] of first) {
    chance += (count / n) * ((second.get(category) ?? 0) / n);
  }
  if (Math.abs(1 - chance) < 1e-12) {
    return null;
  }
  return round((observed - chance) / (1 - chance));
}
