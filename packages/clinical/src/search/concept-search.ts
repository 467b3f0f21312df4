import type { Concept, ConceptClass } from '../kb/format.ts';
import {
  childEnd,
  createPrefixLists,
  postingCount,
  prefixRange,
  RangeCursor,
  type PrefixLists,
} from './prefix-lists.ts';

/** One answer of concept search (spec 3 §3 "Concept search result", plus class and score). */
export interface ConceptSearchResult {
  conceptId: string;
  canonicalName: string;
  /** The concept's aliases. */
  index: string[];
  class: ConceptClass;
  /** 0..1; higher is better. */
  score: number;
  /** The name (canonical or alias) that matched best. */
  matched: string;
}

export interface ConceptSearchOptions {
  /** Only concepts of these classes. */
  classes?: readonly ConceptClass[];
  /** At most this many results (default 20). */
  limit?: number;
}

/** A search index over concepts, built once and queried many times. */
export interface ConceptIndex {
  search(query: string, options?: ConceptSearchOptions): ConceptSearchResult[];
  readonly size: number;
}

/**
 * Normalises text for matching: lower case, accents removed, anything but letters and digits
 * becomes a space, spaces collapsed. 'Crohn’s Disease' → 'crohn s disease'.
 */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Edits allowed for a token of this length: none up to 3 letters, 1 up to 6, then 2. */
export function allowedEdits(length: number): number {
  return length <= 3 ? 0 : length <= 6 ? 1 : 2;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), giving up and
 * returning `max + 1` as soon as the distance must exceed `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) {
    return max + 1;
  }
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prevPrev[j - 2] ?? 0) + 1);
      }
      row.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) {
      return max + 1;
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

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
const bonusOf = (canonical: boolean, closeness: number) => (canonical ? 0.02 : 0) + 0.1 * closeness;
const prefixScore = (bonus: number) => TIER.prefix + bonus * 0.5;
const tokensScore = (bonus: number, anyPrefix: boolean) =>
  TIER.tokens + bonus - (anyPrefix ? 0.02 : 0);
const fuzzyScore = (bonus: number, edits: number, prefixes: number) =>
  TIER.fuzzy + bonus - 0.08 * edits - 0.01 * prefixes;
const rounded = (score: number) => Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;

// Reused rows of the bounded edit distance (one search runs at a time: JavaScript is single-threaded).
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** `boundedEditDistance(q, t.slice(0, tEnd), max)` without allocating. */
function editsWithin(q: string, t: string, tEnd: number, max: number): number {
  const n = q.length;
  if (Math.abs(n - tEnd) > max) {
    return max + 1;
  }
  if (rowA.length <= n + 1) {
    rowA = new Int32Array(2 * n + 2);
    rowB = new Int32Array(2 * n + 2);
    rowC = new Int32Array(2 * n + 2);
  }
  let prevPrev = rowA;
  let prev = rowB;
  let row = rowC;
  for (let j = 0; j <= n; j++) {
    prev[j] = j;
  }
  for (let i = 1; i <= tEnd; i++) {
    const ti = t.charCodeAt(i - 1);
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const qj = q.charCodeAt(j - 1);
      let v = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (qj === ti ? 0 : 1),
      );
      if (i > 1 && j > 1 && qj === t.charCodeAt(i - 2) && q.charCodeAt(j - 2) === ti) {
        v = Math.min(v, (prevPrev[j - 2] as number) + 1);
      }
      row[j] = v;
      if (v < rowMin) {
        rowMin = v;
      }
    }
    if (rowMin > max) {
      return max + 1;
    }
    const spare = prevPrev;
    prevPrev = prev;
    prev = row;
    row = spare;
  }
  return prev[n] as number;
}

/** The index proper: typed arrays over entries (one per distinct name of a concept). */
interface Built {
  concepts: readonly Concept[];
  /** Per entry, entries numbered shortest name first (then canonical first). */
  concept: Int32Array;
  /** 0: the canonical name; i: aliases[i - 1]. */
  nameAt: Uint16Array;
  length: Uint16Array;
  text: Int32Array;
  /** Entry e's tokens (vocabulary ids, in order): tokenIds[tokenOffsets[e] .. tokenOffsets[e + 1]). */
  tokenOffsets: Int32Array;
  tokenIds: Int32Array;
  /** Distinct normalised names → entries. */
  texts: PrefixLists;
  /** Distinct tokens → entries. */
  vocabulary: PrefixLists;
}

/** Candidates read at most, once the page is full, whose best score only ties its last one. */
const TIE_READS = 256;

/**
 * Candidates a search reads at most (default of `candidateBudget`), best first, once it has one
 * result (eight times as many while it has none). Queries of short, common words in a large
 * terminology have many thousands of candidates that all score alike; the budget keeps their cost
 * flat while the vocabulary grows, at the price of an exhaustive answer for them.
 */
export const CANDIDATE_BUDGET = 4096;

export interface ConceptIndexOptions {
  /** See `CANDIDATE_BUDGET`; `Infinity` reads every candidate that could enter the page. */
  candidateBudget?: number;
}

/** Names built per step of a background build. */
const STEP = 20_000;

/** CSR postings of keys sorted from `keyOf(entry)` lists (entries visited in id order). */
function postingsOf(
  keyCount: number,
  entries: number,
  forEach: (e: number, add: (key: number) => void) => void,
): { offsets: Int32Array; ids: Int32Array } {
  const offsets = new Int32Array(keyCount + 1);
  for (let e = 0; e < entries; e++) {
    forEach(e, (k) => {
      offsets[k + 1] = (offsets[k + 1] as number) + 1;
    });
  }
  for (let k = 0; k < keyCount; k++) {
    offsets[k + 1] = (offsets[k + 1] as number) + (offsets[k] as number);
  }
  const ids = new Int32Array(offsets[keyCount] as number);
  const fill = offsets.slice(0, keyCount);
  for (let e = 0; e < entries; e++) {
    forEach(e, (k) => {
      ids[fill[k] as number] = e;
      fill[k] = (fill[k] as number) + 1;
    });
  }
  return { offsets, ids };
}

/** Gives each distinct string its rank in sorted order; `map` ends holding string → rank. */
function sortedKeys(map: Map<string, number>): string[] {
  const keys = [...map.keys()].sort();
  keys.forEach((key, i) => map.set(key, i));
  return keys;
}

/** Builds the index, yielding between steps so a caller can let other work run. */
function* build(concepts: readonly Concept[]): Generator<void, Built, void> {
  // 1. One entry per distinct normalised name of each concept.
  const eConcept: number[] = [];
  const eName: number[] = [];
  const eText: string[] = [];
  for (let c = 0; c < concepts.length; c++) {
    const concept = concepts[c] as Concept;
    const start = eText.length;
    for (let i = 0; i <= concept.aliases.length; i++) {
      const text = normaliseText(
        i === 0 ? concept.canonicalName : (concept.aliases[i - 1] as string),
      );
      let seen = text === '';
      for (let k = start; k < eText.length && !seen; k++) {
        seen = eText[k] === text;
      }
      if (!seen) {
        eConcept.push(c);
        eName.push(i);
        eText.push(text);
      }
    }
    if (c % STEP === STEP - 1) {
      yield;
    }
  }
  const n = eText.length;
  // 2. Distinct names, sorted.
  const textIds = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const text = eText[i] as string;
    if (!textIds.has(text)) {
      textIds.set(text, textIds.size);
    }
  }
  const textKeys = sortedKeys(textIds);
  yield;
  // 3. Number entries in the ranking's order of ties: shortest name first, then canonical names,
  //    then by the concept's canonical name, shortest and then alphabetical first. Search reads
  //    candidates in this order, so where many names tie the first ones read are the ones shown.
  const canonicalRank = new Int32Array(concepts.length).fill(0x7fffffff);
  const textOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const rank = textIds.get(eText[i] as string) as number;
    textOf[i] = rank;
    if (eName[i] === 0) {
      canonicalRank[eConcept[i] as number] = rank;
    }
  }
  textIds.clear();
  const sortKey = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = eConcept[i] as number;
    const first =
      (Math.min((eText[i] as string).length, 2047) * 2 + (eName[i] === 0 ? 0 : 1)) * 256 +
      Math.min((concepts[c] as Concept).canonicalName.length, 255);
    sortKey[i] = first * 2 ** 31 + (canonicalRank[c] as number);
  }
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
  }
  order.sort((x, y) => (sortKey[x] as number) - (sortKey[y] as number) || x - y);
  yield;
  const concept = new Int32Array(n);
  const nameAt = new Uint16Array(n);
  const length = new Uint16Array(n);
  const text = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    concept[r] = eConcept[i] as number;
    nameAt[r] = eName[i] as number;
    length[r] = Math.min((eText[i] as string).length, 65_535);
    text[r] = textOf[i] as number;
  }
  eConcept.length = 0;
  eName.length = 0;
  yield;
  // 4. Distinct tokens, sorted.
  const tokenIdsOf = new Map<string, number>();
  const tokenOffsets = new Int32Array(n + 1);
  let tokens: number[] = [];
  for (let r = 0; r < n; r++) {
    for (const token of (eText[order[r] as number] as string).split(' ')) {
      let id = tokenIdsOf.get(token);
      if (id === undefined) {
        id = tokenIdsOf.size;
        tokenIdsOf.set(token, id);
      }
      tokens.push(id);
    }
    tokenOffsets[r + 1] = tokens.length;
    if (r % STEP === STEP - 1) {
      yield;
    }
  }
  eText.length = 0;
  const vocabularyKeys = sortedKeys(tokenIdsOf);
  // Map iteration keeps insertion order: the i-th value is the rank of first-seen token i.
  const remap = new Int32Array(vocabularyKeys.length);
  let i = 0;
  for (const rank of tokenIdsOf.values()) {
    remap[i++] = rank;
  }
  tokenIdsOf.clear();
  const tokenIds = Int32Array.from(tokens, (id) => remap[id] as number);
  tokens = [];
  yield;
  // 5. Postings, ascending by construction; then the heavy prefix lists.
  const textPostings = postingsOf(textKeys.length, n, (e, add) => add(text[e] as number));
  const tokenPostings = postingsOf(vocabularyKeys.length, n, (e, add) => {
    const from = tokenOffsets[e] as number;
    const to = tokenOffsets[e + 1] as number;
    for (let k = from; k < to; k++) {
      const id = tokenIds[k] as number;
      let repeat = false;
      for (let m = from; m < k && !repeat; m++) {
        repeat = tokenIds[m] === id;
      }
      if (!repeat) {
        add(id);
      }
    }
  });
  yield;
  const texts = createPrefixLists(textKeys, textPostings.offsets, textPostings.ids);
  yield;
  const vocabulary = createPrefixLists(vocabularyKeys, tokenPostings.offsets, tokenPostings.ids);
  return { concepts, concept, nameAt, length, text, tokenOffsets, tokenIds, texts, vocabulary };
}

/** One source of candidate entries, ascending by id, with the best score any of them can have. */
interface Source {
  /** Upper bound of the score of the next entry (refreshed on each move). */
  bound: number;
  /** Entries ascending; undefined until first read (then `bound` is the best the source allows). */
  cursor?: RangeCursor;
  /** A prefix or token range of `lists`. */
  lists?: PrefixLists;
  lo: number;
  hi: number;
  /** Score of an entry of `length` from this source, at best. */
  best: (length: number) => number;
  /** The typo-tolerant sources, made when first needed. */
  expand?: () => Source[];
}

class SourceHeap {
  readonly items: Source[] = [];
  push(source: Source): void {
    const items = this.items;
    items.push(source);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as Source).bound >= source.bound) {
        break;
      }
      items[i] = items[parent] as Source;
      i = parent;
    }
    items[i] = source;
  }
  /** Removes the top. */
  pop(): void {
    const items = this.items;
    const last = items.pop() as Source;
    if (items.length > 0) {
      items[0] = last;
      this.settleTop();
    }
  }
  /** Restores the order after the top's bound went down. */
  settleTop(): void {
    const items = this.items;
    const n = items.length;
    const source = items[0] as Source;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) {
        break;
      }
      const r = l + 1;
      const c = r < n && (items[r] as Source).bound > (items[l] as Source).bound ? r : l;
      if ((items[c] as Source).bound <= source.bound) {
        break;
      }
      items[i] = items[c] as Source;
      i = c;
    }
    items[i] = source;
  }
}

/**
 * Vocabulary ranges within `max` edits of `q` (Damerau: a swap of neighbours is one edit), by a
 * walk of the sorted vocabulary as a trie with one edit-distance row per node, pruning every branch
 * whose row already exceeds `max`: a token within reach is reported as the range [k, k + 1); when
 * `typing`, so is every token whose start of the query's length (or one more) is within reach, as
 * the range of that start.
 */
function fuzzyRanges(
  keys: readonly string[],
  q: string,
  max: number,
  typing: boolean,
  found: (lo: number, hi: number, edits: number) => void,
): void {
  const n = q.length;
  const rows = Array.from({ length: n + max + 3 }, () => new Int32Array(n + 1));
  const first = rows[0] as Int32Array;
  for (let j = 0; j <= n; j++) {
    first[j] = j;
  }
  const visit = (lo: number, hi: number, depth: number): void => {
    const row = rows[depth] as Int32Array;
    const own = (keys[lo] as string).length === depth;
    if (depth > 0) {
      const last = row[n] as number;
      if (last <= max) {
        if (own) {
          found(lo, lo + 1, last);
        }
        if (typing && (depth === n || depth === n + 1)) {
          const from = own && depth === n ? lo + 1 : lo;
          if (from < hi) {
            found(from, hi, last);
          }
        }
      }
      let rowMin = row[0] as number;
      for (let j = 1; j <= n; j++) {
        rowMin = Math.min(rowMin, row[j] as number);
      }
      if (rowMin > max) {
        return;
      }
    }
    const next = rows[depth + 1] as Int32Array;
    const prevPrev = depth > 0 ? (rows[depth - 1] as Int32Array) : undefined;
    let start = own ? lo + 1 : lo;
    while (start < hi) {
      const end = childEnd(keys, start, hi, depth);
      const key = keys[start] as string;
      const char = key.charCodeAt(depth);
      const prevChar = depth > 0 ? key.charCodeAt(depth - 1) : -1;
      next[0] = depth + 1;
      for (let j = 1; j <= n; j++) {
        const qj = q.charCodeAt(j - 1);
        let v = Math.min(
          (row[j] as number) + 1,
          (next[j - 1] as number) + 1,
          (row[j - 1] as number) + (qj === char ? 0 : 1),
        );
        if (prevPrev && j > 1 && qj === prevChar && q.charCodeAt(j - 2) === char) {
          v = Math.min(v, (prevPrev[j - 2] as number) + 1);
        }
        next[j] = v;
      }
      visit(start, end, depth + 1);
      start = end;
    }
  };
  if (keys.length > 0) {
    visit(0, keys.length, 0);
  }
}

function search(
  index: Built,
  budget: number,
  rawQuery: string,
  options: ConceptSearchOptions,
): ConceptSearchResult[] {
  const query = normaliseText(rawQuery);
  const limit = options.limit ?? 20;
  if (query === '' || limit <= 0) {
    return [];
  }
  const { concepts, texts, vocabulary } = index;
  const classes = options.classes ? new Set(options.classes) : undefined;
  const qTokens = query.split(' ');
  const lastToken = qTokens.length - 1;
  const ql = query.length;
  const closeness = (length: number) => Math.min(1, ql / length);

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
  const scoreEntry = (e: number): number => {
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

  const heap = new SourceHeap();
  const range = (
    lists: PrefixLists,
    [lo, hi]: [number, number],
    best: (length: number) => number,
  ): void => {
    if (lo < hi) {
      heap.push({ bound: best(1), lists, lo, hi, best });
    }
  };
  const rangeCount = (q: string) => {
    const [lo, hi] = prefixRange(vocabulary.keys, q);
    return postingCount(vocabulary, lo, hi);
  };
  /** The query token whose exact-or-prefix matches are fewest, among `among`. */
  const rarest = (among: number[]): number =>
    among.reduce((a, b) =>
      rangeCount(qTokens[b] as string) < rangeCount(qTokens[a] as string) ? b : a,
    );

  // Exact and prefix-of-the-name matches: names that start with the query.
  range(texts, prefixRange(texts.keys, query), (length) =>
    length <= ql ? 1 : prefixScore(bonusOf(true, closeness(length))),
  );
  // All tokens exact or prefix: entries holding the rarest query token are the only candidates.
  const all = qTokens.map((_, j) => j);
  const driver = qTokens[rarest(all)] as string;
  range(vocabulary, prefixRange(vocabulary.keys, driver), (length) =>
    tokensScore(bonusOf(true, closeness(length)), false),
  );
  // Typos: entries holding a match (exact, prefix or within the allowed edits) of one query
  // token, searched only when the better tiers leave room in the page.
  const fuzzyBest = (edits: number) => (length: number) =>
    fuzzyScore(bonusOf(true, closeness(length)), edits, 0);
  if (qTokens.some((t) => allowedEdits(t.length) > 0)) {
    heap.push({
      bound: fuzzyBest(0)(1),
      lo: 0,
      hi: 0,
      best: fuzzyBest(0),
      expand: () => {
        // Every entry of the tier holds a match of each query token: read those of the token
        // whose matches (exact, prefix or within its edits) have the fewest postings.
        let chosen: { ranges: [number, number, number][]; cost: number } | undefined;
        const byPrefixCount = all
          .map((j) => ({ j, count: rangeCount(qTokens[j] as string) }))
          .sort((x, y) => x.count - y.count);
        for (const { j, count } of byPrefixCount) {
          if (chosen && count >= chosen.cost) {
            break;
          }
          const q = qTokens[j] as string;
          const ranges: [number, number, number][] = [[...prefixRange(vocabulary.keys, q), 0]];
          let cost = count;
          const max = allowedEdits(q.length);
          if (max > 0) {
            fuzzyRanges(vocabulary.keys, q, max, j === lastToken, (lo, hi, edits) => {
              ranges.push([lo, hi, edits]);
              cost += postingCount(vocabulary, lo, hi);
            });
          }
          if (!chosen || cost < chosen.cost) {
            chosen = { ranges, cost };
          }
        }
        const sources: Source[] = [];
        for (const [lo, hi, edits] of chosen?.ranges ?? []) {
          if (lo < hi) {
            const best = fuzzyBest(edits);
            sources.push({ bound: best(1), lists: vocabulary, lo, hi, best });
          }
        }
        return sources;
      },
    });
  }

  // Candidates best first, until no unseen entry can enter the page.
  const bestOf = new Map<number, { score: number; entry: number }>();
  const top: { concept: number; score: number }[] = [];
  const seen = new Set<number>();
  let tieReads = 0;
  let reads = 0;
  while (heap.items.length > 0) {
    const source = heap.items[0] as Source;
    if (top.length >= limit) {
      const bound = rounded(source.bound);
      const kth = rounded((top[limit - 1] as { score: number }).score);
      // Nothing unread can score higher; an equal score may still win on the name, read on a
      // little (candidates come in the order of that tie-break, so the first ones read win).
      if (bound < kth || (bound === kth && ++tieReads > TIE_READS)) {
        break;
      }
    }
    if (source.expand) {
      heap.pop();
      for (const more of source.expand()) {
        heap.push(more);
      }
      continue;
    }
    if (!source.cursor) {
      source.cursor = new RangeCursor(source.lists as PrefixLists, source.lo, source.hi);
      const head = source.cursor.peek();
      if (head < 0) {
        heap.pop();
      } else {
        source.bound = source.best(index.length[head] as number);
        heap.settleTop();
      }
      continue;
    }
    const e = source.cursor.peek();
    if (++reads > budget && (top.length > 0 || reads > 8 * budget)) {
      break;
    }
    source.cursor.advance();
    const next = source.cursor.peek();
    if (next < 0) {
      heap.pop();
    } else {
      source.bound = source.best(index.length[next] as number);
      heap.settleTop();
    }
    if (seen.has(e)) {
      continue;
    }
    seen.add(e);
    const c = index.concept[e] as number;
    const concept = concepts[c] as Concept;
    if (classes && !classes.has(concept.class)) {
      continue;
    }
    const score = scoreEntry(e);
    const current = bestOf.get(c);
    if (score <= 0 || (current && score <= current.score)) {
      continue;
    }
    bestOf.set(c, { score, entry: e });
    // Keep `top` the page's best concepts so far, best first.
    const at = top.findIndex((t) => t.concept === c);
    if (at >= 0) {
      (top[at] as { score: number }).score = score;
    } else if (top.length < limit || score > (top[top.length - 1] as { score: number }).score) {
      top.push({ concept: c, score });
    } else {
      continue;
    }
    top.sort((a, b) => b.score - a.score);
    if (top.length > limit) {
      top.pop();
    }
  }

  return [...bestOf]
    .map(([c, { score, entry }]): ConceptSearchResult => {
      const concept = concepts[c] as Concept;
      const at = index.nameAt[entry] as number;
      return {
        conceptId: concept.id,
        canonicalName: concept.canonicalName,
        index: [...concept.aliases],
        class: concept.class,
        score: rounded(score),
        matched: at === 0 ? concept.canonicalName : (concept.aliases[at - 1] as string),
      };
    })
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.canonicalName.length - b.canonicalName.length ||
        a.canonicalName.localeCompare(b.canonicalName),
    )
    .slice(0, limit);
}

function indexOver(built: () => Built, size: number, options: ConceptIndexOptions): ConceptIndex {
  const budget = options.candidateBudget ?? CANDIDATE_BUDGET;
  return {
    size,
    search: (query, searchOptions = {}) => search(built(), budget, query, searchOptions),
  };
}

/**
 * Builds an in-memory concept index over canonical names and aliases.
 *
 * Search reads candidates best first and stops once no unread candidate can enter the page, so its
 * cost follows the page and the query rather than the vocabulary: names that start with the query
 * (sorted names, by binary search), entries holding the rarest query token or a word it starts
 * (sorted vocabulary, postings in order of name length, the first ids of every crowded prefix
 * kept ready) and, when those leave room, the tokens within the allowed edits of one query token
 * (a walk of the sorted vocabulary as a trie with an edit-distance row per node). A query with
 * more candidates than `candidateBudget` is answered from the best-placed ones.
 */
export function createConceptIndex(
  concepts: readonly Concept[],
  options: ConceptIndexOptions = {},
): ConceptIndex {
  const steps = build(concepts);
  let step = steps.next();
  while (!step.done) {
    step = steps.next();
  }
  const built = step.value;
  return indexOver(() => built, concepts.length, options);
}

/** A concept index built a step at a time between other work; see `createConceptIndexInBackground`. */
export interface BackgroundConceptIndex extends ConceptIndex {
  /** Settles when the index is built (a search before that finishes the build at once). */
  readonly ready: Promise<void>;
}

/**
 * Builds the index in steps of about `sliceMs` (default 10 ms), giving the event loop back between
 * them, so a server answers (`/healthz` included) while a large terminology is indexed. A search
 * that comes before the end finishes the build synchronously: it is never answered from a part.
 */
export function createConceptIndexInBackground(
  concepts: readonly Concept[],
  options: ConceptIndexOptions & { sliceMs?: number } = {},
): BackgroundConceptIndex {
  const sliceMs = options.sliceMs ?? 10;
  const steps = build(concepts);
  let built: Built | undefined;
  let failure: unknown;
  const run = (until: number): Built => {
    if (failure !== undefined) {
      throw failure as Error;
    }
    try {
      while (!built) {
        const step = steps.next();
        if (step.done) {
          built = step.value;
        } else if (performance.now() > until) {
          break;
        }
      }
    } catch (error) {
      failure = error;
      throw error;
    }
    return built as Built;
  };
  const ready = new Promise<void>((resolve, reject) => {
    const slice = () => {
      try {
        run(performance.now() + sliceMs);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (built) {
        resolve();
      } else {
        setTimeout(slice, 0);
      }
    };
    setTimeout(slice, 0);
  });
  return { ...indexOver(() => built ?? run(Infinity), concepts.length, options), ready };
}
