// Concept search as it was before issue 22 (commit 5e0062c), kept only as the reference for the
// top-10 overlap that bench/typeahead.ts prints. Not used by the product.
import type { Concept, ConceptClass } from '../packages/clinical/src/kb/format.ts';

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

interface Entry {
  concept: number;
  name: string;
  text: string;
  tokens: string[];
  canonical: boolean;
}

/** How a query token met a name token, best first. */
const TokenMatch = { Exact: 0, Prefix: 1, Fuzzy: 2 } as const;
type TokenMatch = (typeof TokenMatch)[keyof typeof TokenMatch];

interface TokenHit {
  kind: TokenMatch;
  edits: number;
}

// Tier scores: exact > prefix > all tokens exact/prefix > fuzzy. Within a tier, small bonuses
// prefer canonical names, names close in length to the query and fewer edits.
const TIER = { exact: 1, prefix: 0.85, tokens: 0.7, fuzzy: 0.5 } as const;

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? '') < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** Builds an in-memory concept index over canonical names and aliases. */
export function createConceptIndex(concepts: readonly Concept[]): ConceptIndex {
  const entries: Entry[] = [];
  concepts.forEach((concept, c) => {
    const seen = new Set<string>();
    [concept.canonicalName, ...concept.aliases].forEach((name, i) => {
      const text = normaliseText(name);
      if (text === '' || seen.has(text)) {
        return;
      }
      seen.add(text);
      entries.push({ concept: c, name, text, tokens: text.split(' '), canonical: i === 0 });
    });
  });
  const postings = new Map<string, number[]>();
  entries.forEach((entry, e) => {
    for (const token of new Set(entry.tokens)) {
      const list = postings.get(token);
      if (list) {
        list.push(e);
      } else {
        postings.set(token, [e]);
      }
    }
  });
  const vocabulary = [...postings.keys()].sort();
  // A trie of the vocabulary: fuzzy matching walks it once per query token with an edit-distance
  // row per node, pruning every branch whose row already exceeds the allowed edits.
  interface TrieNode {
    children: Map<string, TrieNode>;
    /** The token ending here, if any. */
    token?: string;
    /** Every token below this node (itself included), for the word still being typed. */
    below: string[];
  }
  const root: TrieNode = { children: new Map(), below: [] };
  for (const token of vocabulary) {
    let node = root;
    for (const char of token) {
      let next = node.children.get(char);
      if (!next) {
        next = { children: new Map(), below: [] };
        node.children.set(char, next);
      }
      next.below.push(token);
      node = next;
    }
    node.token = token;
  }

  /**
   * Tokens within `max` edits (Damerau: a swap of neighbours is one edit) of the query token;
   * when `typing`, also tokens whose start of the query's length (or one more) is within reach.
   */
  function fuzzyTokens(
    qToken: string,
    max: number,
    typing: boolean,
    found: (token: string, edits: number) => void,
  ): void {
    const q = [...qToken];
    const first = Array.from({ length: q.length + 1 }, (_, i) => i);
    const walk = (
      node: TrieNode,
      char: string,
      depth: number,
      prev: number[],
      prevPrev: number[] | undefined,
      prevChar: string | undefined,
    ) => {
      const row = [depth];
      let rowMin = depth;
      for (let j = 1; j <= q.length; j++) {
        const cost = q[j - 1] === char ? 0 : 1;
        let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
        if (prevPrev && j > 1 && q[j - 1] === prevChar && q[j - 2] === char) {
          v = Math.min(v, (prevPrev[j - 2] ?? 0) + 1);
        }
        row.push(v);
        rowMin = Math.min(rowMin, v);
      }
      const last = row[q.length] ?? max + 1;
      if (node.token !== undefined && last <= max) {
        found(node.token, last);
      }
      if (typing && (depth === q.length || depth === q.length + 1) && last <= max) {
        for (const token of node.below) {
          if (token.length > q.length) {
            found(token, last);
          }
        }
      }
      if (rowMin > max) {
        return;
      }
      for (const [next, child] of node.children) {
        walk(child, next, depth + 1, row, prev, char);
      }
    };
    for (const [char, child] of root.children) {
      walk(child, char, 1, first, undefined, undefined);
    }
  }

  /** Every vocabulary token a query token can stand for, with how it matched. */
  function candidates(qToken: string, typing: boolean, fuzzy: boolean): Map<string, TokenHit> {
    const hits = new Map<string, TokenHit>();
    // Every query word may be a prefix: staff type 'abd pa' for 'abdominal pain'.
    for (let i = lowerBound(vocabulary, qToken); i < vocabulary.length; i++) {
      const token = vocabulary[i] ?? '';
      if (!token.startsWith(qToken)) {
        break;
      }
      hits.set(token, { kind: token === qToken ? TokenMatch.Exact : TokenMatch.Prefix, edits: 0 });
    }
    const max = allowedEdits(qToken.length);
    if (!fuzzy || max === 0) {
      return hits;
    }
    fuzzyTokens(qToken, max, typing, (token, edits) => {
      const current = hits.get(token);
      if (!current || (current.kind === TokenMatch.Fuzzy && edits < current.edits)) {
        hits.set(token, { kind: TokenMatch.Fuzzy, edits });
      }
    });
    return hits;
  }

  function scoreEntry(entry: Entry, query: string, perToken: Map<string, TokenHit>[]): number {
    if (entry.text === query) {
      return TIER.exact - (entry.canonical ? 0 : 0.01);
    }
    // 0..1: 1 when the query is as long as the name.
    const closeness = Math.min(1, query.length / entry.text.length);
    const bonus = (entry.canonical ? 0.02 : 0) + 0.1 * closeness;
    if (entry.text.startsWith(query)) {
      return TIER.prefix + bonus * 0.5;
    }
    // Match each query token to a distinct name token, taking the best available.
    const used = new Set<number>();
    let worst: TokenMatch = TokenMatch.Exact;
    let edits = 0;
    let prefixes = 0;
    for (const hits of perToken) {
      let best: { at: number; hit: TokenHit } | undefined;
      entry.tokens.forEach((token, at) => {
        const hit = hits.get(token);
        if (
          hit &&
          !used.has(at) &&
          (!best ||
            hit.kind < best.hit.kind ||
            (hit.kind === best.hit.kind && hit.edits < best.hit.edits))
        ) {
          best = { at, hit };
        }
      });
      if (!best) {
        return 0;
      }
      used.add(best.at);
      worst = Math.max(worst, best.hit.kind) as TokenMatch;
      prefixes += best.hit.kind === TokenMatch.Prefix ? 1 : 0;
      edits += best.hit.edits;
    }
    if (worst !== TokenMatch.Fuzzy) {
      return TIER.tokens + bonus - (worst === TokenMatch.Prefix ? 0.02 : 0);
    }
    return TIER.fuzzy + bonus - 0.08 * edits - 0.01 * prefixes;
  }

  return {
    size: concepts.length,
    search(rawQuery, options = {}) {
      const query = normaliseText(rawQuery);
      const limit = options.limit ?? 20;
      if (query === '' || limit <= 0) {
        return [];
      }
      const classes = options.classes ? new Set(options.classes) : undefined;
      const qTokens = query.split(' ');
      // Fuzzy matches always score below exact, prefix and all-token matches: when those alone
      // fill the page, the typo-tolerant pass cannot change it and is skipped.
      const exactish = rank(query, qTokens, classes, false);
      if (exactish.length >= limit) {
        return exactish.slice(0, limit);
      }
      return rank(query, qTokens, classes, true).slice(0, limit);
    },
  };

  /** Scores every entry that can match, best concept name first. */
  function rank(
    query: string,
    qTokens: string[],
    classes: Set<ConceptClass> | undefined,
    fuzzy: boolean,
  ): ConceptSearchResult[] {
    const perToken = qTokens.map((t, i) => candidates(t, i === qTokens.length - 1, fuzzy));

    // Entries that hold a candidate for the rarest query token are the only ones worth scoring.
    let seed: Set<number> | undefined;
    for (const hits of perToken) {
      const set = new Set<number>();
      for (const token of hits.keys()) {
        for (const e of postings.get(token) ?? []) {
          set.add(e);
        }
      }
      if (!seed || set.size < seed.size) {
        seed = set;
      }
    }

    const best = new Map<number, { score: number; entry: Entry }>();
    for (const e of seed ?? []) {
      const entry = entries[e];
      const concept = entry ? concepts[entry.concept] : undefined;
      if (!entry || !concept || (classes && !classes.has(concept.class))) {
        continue;
      }
      const score = scoreEntry(entry, query, perToken);
      const current = best.get(entry.concept);
      if (score > 0 && (!current || score > current.score)) {
        best.set(entry.concept, { score, entry });
      }
    }

    return [...best.entries()]
      .map(([c, { score, entry }]) => {
        const concept = concepts[c] as Concept;
        return {
          conceptId: concept.id,
          canonicalName: concept.canonicalName,
          index: [...concept.aliases],
          class: concept.class,
          score: Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000,
          matched: entry.name,
        };
      })
      .sort(
        (a, b) =>
          b.score - a.score ||
          a.canonicalName.length - b.canonicalName.length ||
          a.canonicalName.localeCompare(b.canonicalName),
      );
  }
}
