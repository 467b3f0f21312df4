import type { Concept } from '../kb/format.ts';
import { allowedEdits, boundedEditDistance } from '../search/concept-search.ts';
import type { Token } from './tokenise.ts';
import { TEXTING } from './normalise.ts';
import { CANNOT, cannotAt, LINK, unitKey } from './names.ts';
import { COMMON_WORDS, FILLER_WORDS, LINKING_WORDS } from './word-lists.ts';

/*
 * Dictionary matching: text as units (word keys), the trie of names over units, the longest match
 * at a unit with fillers, linking words and typos.
 */

export interface Unit {
  key: string;
  token: Token;
  /** The last token of the unit: a 'cannot' phrase ('can barely') is one unit of two tokens. */
  last: Token;
  /** A breaking punctuation mark (',' ':' '(' …) stands between this unit and the previous one. */
  comma: boolean;
}

// Punctuation inside a name or a cue: 'light-headed', 'h/o', "can't".
const TRANSPARENT = new Set(['-', '/', "'", '’', '&']);

export function unitsOf(tokens: readonly Token[]): Unit[] {
  // Breaking punctuation is kept as a flag on the next word: scopes may cross it (lists: 'no
  // fever, cough or cold'), names may not.
  const units: Unit[] = [];
  let comma = false;
  for (const token of tokens) {
    if (token.kind === 'punct') {
      if (!TRANSPARENT.has(token.text)) {
        comma = true;
      }
      continue;
    }
    const shorthand = token.text.length <= 6 ? TEXTING[token.text.toLowerCase()] : undefined;
    for (const word of shorthand?.split(' ') ?? [token.text]) {
      units.push({ key: unitKey(word), token, last: token, comma });
      comma = false;
    }
  }
  const keys = units.map((u) => u.key);
  const merged: Unit[] = [];
  for (let i = 0; i < units.length;) {
    const unit = units[i] as Unit;
    let length = cannotAt(keys, i);
    // Only words of one clause merge.
    if (units.slice(i + 1, i + length).some((u) => u.comma)) {
      length = 0;
    }
    if (length > 0) {
      merged.push({ ...unit, key: CANNOT, last: (units[i + length - 1] as Unit).last });
      i += length;
    } else {
      merged.push(unit);
      i++;
    }
  }
  return merged;
}

export interface TrieNode<T> {
  children: Map<string, TrieNode<T>>;
  values: T[];
}

export const node = <T>(): TrieNode<T> => ({ children: new Map(), values: [] });

export function insert<T>(root: TrieNode<T>, keys: readonly string[], value: T): void {
  let at = root;
  for (const key of keys) {
    let next = at.children.get(key);
    if (!next) {
      next = node<T>();
      at.children.set(key, next);
    }
    at = next;
  }
  at.values.push(value);
}

export interface NameEntry {
  concept: Concept;
  name: string;
  canonical: boolean;
  /** Said another way by rule (derivedNameKeys), not written in the KB. */
  derived?: boolean;
  /** The body part the name describes ('tummy' of 'swollen tummy'), for coordinated findings. */
  part?: readonly string[];
  /** Short acronyms ('MI', 'PE') only match in the same case. */
  exactCase: string | undefined;
}

export interface Match<T> {
  from: number;
  /** Exclusive unit index. */
  to: number;
  values: T[];
  fuzzy: number;
}

/** At most this many filler words inside one name. */
const MAX_FILLERS = 3;

/**
 * Longest dictionary match starting at `from`; ties go to fewer fuzzy words. Inside a name,
 * filler words ('really') may be skipped, and a LINK step takes one or more linking words.
 */
export function longestAt<T>(
  root: TrieNode<T>,
  units: readonly Unit[],
  from: number,
  fuzzyWord: ((key: string, node: TrieNode<T>) => TrieNode<T>[]) | undefined,
): Match<T> | undefined {
  let best: Match<T> | undefined;
  const walk = (at: TrieNode<T>, i: number, fuzzy: number, skips: number, word: boolean): void => {
    // A match ends on a word of the name, never on a skipped filler or a linking word.
    if (word && at.values.length > 0 && i > from) {
      const better = !best || i > best.to || (i === best.to && fuzzy < best.fuzzy);
      if (better) {
        best = { from, to: i, values: at.values, fuzzy };
      }
    }
    const unit = units[i];
    if (!unit || (i > from && unit.comma)) {
      return;
    }
    const exact = at.children.get(unit.key);
    if (exact) {
      walk(exact, i + 1, fuzzy, skips, true);
    } else if (fuzzy === 0 && fuzzyWord) {
      for (const next of fuzzyWord(unit.key, at)) {
        walk(next, i + 1, fuzzy + 1, skips, true);
      }
    }
    const link = i > from ? at.children.get(LINK) : undefined;
    if (link && LINKING_WORDS.has(unit.key)) {
      // One or more linking words (and fillers): 'is', 'has been', 'feels really'.
      let j = i;
      while (
        j < units.length &&
        j - i < 4 &&
        !(units[j] as Unit).comma &&
        (LINKING_WORDS.has((units[j] as Unit).key) || FILLER_WORDS.has((units[j] as Unit).key))
      ) {
        j++;
        walk(link, j, fuzzy, skips, false);
      }
    }
    if (
      i > from &&
      !exact &&
      skips < MAX_FILLERS &&
      (FILLER_WORDS.has(unit.key) || LINKING_WORDS.has(unit.key))
    ) {
      walk(at, i + 1, fuzzy, skips + 1, false);
    }
  };
  walk(root, from, 0, 0, false);
  return best;
}

/** The node reached by `keys`, if any. */
export function find<T>(root: TrieNode<T>, keys: readonly string[]): TrieNode<T> | undefined {
  let at: TrieNode<T> | undefined = root;
  for (const key of keys) {
    at = at?.children.get(key);
  }
  return at;
}

/** A word with its doubled letters single: 'diarhea' and 'diarrhea', 'chils' and 'chills'. */
const undoubledCache = new Map<string, string>();
export const undoubled = (word: string): string => {
  let single = undoubledCache.get(word);
  if (single === undefined) {
    single = word.replace(/(\p{L})\1+/gu, '$1');
    if (undoubledCache.size < 100_000) {
      undoubledCache.set(word, single);
    }
  }
  return single;
};
export const sameLetters = (a: string, b: string) =>
  [...a].sort().join('') === [...b].sort().join('');

/**
 * The children of a trie node with many children, sorted by key: an implicit character trie (the
 * keys sharing a prefix are a range, found by binary search), so that a typo is looked up in time
 * that depends on the word and the alphabet, not on how many names the dictionary holds.
 */
interface ChildIndex {
  keys: string[];
  nodes: TrieNode<NameEntry>[];
  /** Position of each child in the node's own order (the order a scan would find them in). */
  order: Int32Array;
}

function indexChildren(at: TrieNode<NameEntry>): ChildIndex {
  const entries: [string, TrieNode<NameEntry>, number][] = [];
  let position = 0;
  for (const [key, next] of at.children) {
    if (key.length >= 4) {
      entries.push([key, next, position]);
    }
    position++;
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    keys: entries.map((e) => e[0]),
    nodes: entries.map((e) => e[1]),
    order: Int32Array.from(entries, (e) => e[2]),
  };
}

/** The range of `keys[lo, hi)` (all sharing `depth` characters) whose next character is `code`. */
function charRange(
  keys: readonly string[],
  lo: number,
  hi: number,
  depth: number,
  code: number,
): [number, number] {
  const start = lo < hi && (keys[lo] as string).length === depth ? lo + 1 : lo;
  const bound = (strict: boolean) => {
    let a = start;
    let b = hi;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const c = (keys[mid] as string).charCodeAt(depth);
      if (c < code || (strict && c === code)) {
        a = mid + 1;
      } else {
        b = mid;
      }
    }
    return a;
  };
  return [bound(false), bound(true)];
}

/**
 * Edits allowed to a word with the same letters as the name's word in another order: two for a
 * word of five or six letters ('athsma' for 'asthma': one letter moved), otherwise the usual.
 */
const anagramEdits = (key: string): number => (key.length === 5 || key.length === 6 ? 2 : 0);

/**
 * Whether `child` (a name's word, same first letter) is a typo of `key` at distance `d`: for a
 * four-letter word two letters swapped; for longer words within `max` edits, or the same letters
 * in another order within `anagramEdits`.
 */
function typoAccepted(key: string, child: string, d: number, max: number): boolean {
  if (key.length === 4) {
    return child.length === 4 && d <= 1 && sameLetters(child, key);
  }
  return (
    child.length >= 5 &&
    (d <= max || (d <= anagramEdits(key) && child.length === key.length && sameLetters(child, key)))
  );
}

/**
 * Positions in `index` of the keys a scan of the typo rule would accept (see `fuzzyMatcher`):
 * the same doubled-letter-free form, or within `max` edits (optimal string alignment) — for a
 * four-letter word only a four-letter anagram.
 */
function indexedTypos(index: ChildIndex, key: string, max: number): number[] {
  const { keys } = index;
  const found = new Set<number>();
  const m = key.length;
  const bound = Math.max(max, anagramEdits(key));
  // Doubled letters: the key's single-letter form with any letter repeated.
  const single = undoubled(key);
  const doubled = (lo: number, hi: number, depth: number, i: number): void => {
    if (lo >= hi) {
      return;
    }
    if (i === single.length && (keys[lo] as string).length === depth) {
      found.add(lo);
    }
    if (i < single.length) {
      const [a, b] = charRange(keys, lo, hi, depth, single.charCodeAt(i));
      doubled(a, b, depth + 1, i + 1);
    }
    if (i > 0) {
      const [a, b] = charRange(keys, lo, hi, depth, single.charCodeAt(i - 1));
      doubled(a, b, depth + 1, i);
    }
  };
  // Edit distance: one row of the alignment table per character of the child's prefix; a row's
  // minimum never falls further down, so a range whose row exceeds `max` is left.
  const edits = (
    lo: number,
    hi: number,
    depth: number,
    prevPrev: readonly number[] | undefined,
    prev: readonly number[],
  ): void => {
    const first = keys[lo] as string;
    let start = lo;
    if (first.length === depth) {
      start++;
      const d = prev[m] as number;
      if (typoAccepted(key, first, d, max)) {
        found.add(lo);
      }
    }
    for (let p = start; p < hi;) {
      const code = (keys[p] as string).charCodeAt(depth);
      const [, q] = charRange(keys, p, hi, depth, code);
      if (depth > 0 || code === key.charCodeAt(0)) {
        const char = (keys[p] as string)[depth] as string;
        const before = depth > 0 ? (keys[p] as string)[depth - 1] : undefined;
        const row = [depth + 1];
        let rowMin = depth + 1;
        for (let j = 1; j <= m; j++) {
          const cost = char === key[j - 1] ? 0 : 1;
          let v = Math.min(
            (prev[j] as number) + 1,
            (row[j - 1] as number) + 1,
            (prev[j - 1] as number) + cost,
          );
          if (prevPrev && j > 1 && char === key[j - 2] && before === key[j - 1]) {
            v = Math.min(v, (prevPrev[j - 2] as number) + 1);
          }
          row.push(v);
          rowMin = Math.min(rowMin, v);
        }
        if (rowMin <= bound) {
          edits(p, q, depth + 1, prev, row);
        }
      }
      p = q;
    }
  };
  doubled(0, keys.length, 0, 0);
  if (keys.length > 0) {
    edits(
      0,
      keys.length,
      0,
      undefined,
      Array.from({ length: m + 1 }, (_, j) => j),
    );
  }
  return [...found].sort((a, b) => (index.order[a] as number) - (index.order[b] as number));
}

/** Children of a node from which the typo rule reads an index rather than scanning them. */
export const FUZZY_INDEX_MIN_CHILDREN = 32;

/**
 * The typo rule: the children of a trie node a word may be a misspelling of. A node with at least
 * `indexMin` children is looked up in an index of them (built on first use), any other scanned;
 * both give the same children in the same order.
 */
export function fuzzyMatcher(
  vocabulary: ReadonlySet<string>,
  indexMin = FUZZY_INDEX_MIN_CHILDREN,
): (key: string, at: TrieNode<NameEntry>) => TrieNode<NameEntry>[] {
  const indexes = new WeakMap<TrieNode<NameEntry>, ChildIndex>();
  return (key: string, at: TrieNode<NameEntry>): TrieNode<NameEntry>[] => {
    // Only words the dictionary does not know and that are no everyday word ('would' is not
    // 'wound'), of five letters or more, and with the right first letter: typos rarely hit
    // the first letter, and short words are too ambiguous. A four-letter word may only have
    // two letters swapped ('pian' for 'pain').
    if (key.length < 4 || vocabulary.has(key) || COMMON_WORDS.has(key) || !/^\p{L}+$/u.test(key)) {
      return [];
    }
    const short = key.length === 4;
    const max = short ? 1 : allowedEdits(key.length);
    // Letters outside the basic plane are two code units: those words are scanned.
    if (at.children.size >= indexMin && [...key].length === key.length) {
      let index = indexes.get(at);
      if (!index) {
        index = indexChildren(at);
        indexes.set(at, index);
      }
      const { nodes } = index;
      return indexedTypos(index, key, max).map((i) => nodes[i] as TrieNode<NameEntry>);
    }
    const found: TrieNode<NameEntry>[] = [];
    for (const [child, next] of at.children) {
      if (
        child.length >= 4 &&
        child[0] === key[0] &&
        (undoubled(child) === undoubled(key) ||
          typoAccepted(
            key,
            child,
            boundedEditDistance(key, child, Math.max(max, anagramEdits(key))),
            max,
          ))
      ) {
        found.push(next);
      }
    }
    return found;
  };
}
