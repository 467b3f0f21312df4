/**
 * The ranking of concept search (spec 3 §3, issue 22): how a query word meets a name word, the
 * tiers' scores, and the score of one entry for a query. `query.ts` reads candidates best first by
 * bounds made of the same tier scores.
 */
import type { Built } from './build.ts';
import { allowedEdits, editsWithin } from './text.ts';

/** How a query token met a name token, best first; a hit is `kind * 8 + edits`, -1 for none. */
const EXACT = 0;
const PREFIX = 8;
const FUZZY = 16;
const NONE = -1;

// Tier scores: exact > prefix > all tokens exact/prefix > fuzzy. Within a tier, small bonuses
// prefer canonical names, names close in length to the query and fewer edits. The tiers do not
// overlap (exact ≥ 0.99 > prefix ≤ 0.91 … ≥ 0.85 > tokens ≤ 0.82 … ≥ 0.68 > fuzzy ≤ 0.62).
const TIER = { exact: 1, prefix: 0.85, tokens: 0.7, fuzzy: 0.5 } as const;

const exactScore = (canonical: boolean) => TIER.exact - (canonical ? 0 : 0.01);
/** How close a name of `length` is to the query's length, 0 .. 1. */
export const closenessOf = (queryLength: number, length: number) =>
  Math.min(1, queryLength / length);
export const bonusOf = (canonical: boolean, closeness: number) =>
  (canonical ? 0.02 : 0) + 0.1 * closeness;
export const prefixScore = (bonus: number) => TIER.prefix + bonus * 0.5;
export const tokensScore = (bonus: number, anyPrefix: boolean) =>
  TIER.tokens + bonus - (anyPrefix ? 0.02 : 0);
export const fuzzyScore = (bonus: number, edits: number, prefixes: number) =>
  TIER.fuzzy + bonus - 0.08 * edits - 0.01 * prefixes;
export const rounded = (score: number) => Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;

/**
 * The score of entry e for a normalised query (0: it does not match), each query word given its
 * own name word, the best available. Caches how each query word meets each vocabulary word.
 */
export function entryScorer(index: Built, query: string): (e: number) => number {
  const { texts, vocabulary } = index;
  const qTokens = query.split(' ');
  const lastToken = qTokens.length - 1;
  const closeness = (length: number) => closenessOf(query.length, length);

  // How query token j meets vocabulary token t (cached per query).
  const caches = qTokens.map(() => new Map<number, number>());
  const hitOf = (j: number, t: number): number => {
    const cache = caches[j] as Map<number, number>;
    let hit = cache.get(t);
    if (hit !== undefined) {
      return hit;
    }
    const q = qTokens[j] as string;
    const token = vocabulary.keys[t] as string;
    if (token === q) {
      hit = EXACT;
    } else if (token.startsWith(q)) {
      hit = PREFIX;
    } else {
      hit = NONE;
      const max = allowedEdits(q.length);
      if (max > 0) {
        let edits = editsWithin(q, token, token.length, max);
        if (j === lastToken && token.length > q.length) {
          edits = Math.min(
            edits,
            editsWithin(q, token, q.length, max),
            editsWithin(q, token, q.length + 1, max),
          );
        }
        if (edits <= max) {
          hit = FUZZY + edits;
        }
      }
    }
    cache.set(t, hit);
    return hit;
  };

  let used = new Uint8Array(16);
  return (e: number): number => {
    const text = texts.keys[index.text[e] as number] as string;
    const canonical = index.nameAt[e] === 0;
    if (text === query) {
      return exactScore(canonical);
    }
    const bonus = bonusOf(canonical, closeness(text.length));
    if (text.startsWith(query)) {
      return prefixScore(bonus);
    }
    // Match each query token to a distinct name token, taking the best available.
    const from = index.tokenOffsets[e] as number;
    const to = index.tokenOffsets[e + 1] as number;
    if (used.length < to - from) {
      used = new Uint8Array(2 * (to - from));
    }
    used.fill(0, 0, to - from);
    let worst = EXACT;
    let edits = 0;
    let prefixes = 0;
    for (let j = 0; j < qTokens.length; j++) {
      let at = -1;
      let best = Infinity;
      for (let k = from; k < to; k++) {
        if (used[k - from] === 1) {
          continue;
        }
        const hit = hitOf(j, index.tokenIds[k] as number);
        if (hit !== NONE && hit < best) {
          best = hit;
          at = k;
        }
      }
      if (at < 0) {
        return 0;
      }
      used[at - from] = 1;
      const kind = best & ~7;
      worst = Math.max(worst, kind);
      prefixes += kind === PREFIX ? 1 : 0;
      edits += best & 7;
    }
    return worst !== FUZZY
      ? tokensScore(bonus, worst === PREFIX)
      : fuzzyScore(bonus, edits, prefixes);
  };
}
