import type { Concept } from '../kb/format.ts';
import type { NameTrie } from './name-trie.ts';
import { NONE } from './name-trie.ts';
import type { Token } from './tokenise.ts';
import { buildTypoIndex, typoWords } from './typo-index.ts';
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

/** The longest name at a unit: the trie node it ends at. */
export interface NameMatch {
  from: number;
  /** Exclusive unit index. */
  to: number;
  node: number;
  fuzzy: number;
}

/**
 * Longest dictionary match starting at `from`; ties go to fewer fuzzy words. Inside a name,
 * filler words ('really') may be skipped, and a LINK step takes one or more linking words.
 * `words` holds each unit's word number in the trie (NONE when no name holds the word);
 * `fuzzyWord` gives the children of a node a word may be a misspelling of, in the node's order
 * (given the word's number in `words`, so that it is not looked up again). `linkId`: the number
 * of LINK in the trie, when the caller has it.
 */
export function longestAt(
  trie: NameTrie,
  units: readonly Unit[],
  words: Int32Array,
  from: number,
  fuzzyWord: ((key: string, at: number, id?: number) => number[]) | undefined,
  linkId?: number,
): NameMatch | undefined {
  let best: NameMatch | undefined;
  // The linking placeholder's number (given by the caller, who looks it up once), else looked up
  // when a linking word is met.
  let link = linkId;
  const walk = (at: number, i: number, fuzzy: number, skips: number, word: boolean): void => {
    // A match ends on a word of the name, never on a skipped filler or a linking word.
    if (word && i > from && trie.hasValues(at)) {
      const better = !best || i > best.to || (i === best.to && fuzzy < best.fuzzy);
      if (better) {
        best = { from, to: i, node: at, fuzzy };
      }
    }
    const unit = units[i];
    if (!unit || (i > from && unit.comma)) {
      return;
    }
    const exact = trie.child(at, words[i] as number);
    if (exact !== NONE) {
      walk(exact, i + 1, fuzzy, skips, true);
    } else if (fuzzy === 0 && fuzzyWord) {
      for (const next of fuzzyWord(unit.key, at, words[i])) {
        walk(next, i + 1, fuzzy + 1, skips, true);
      }
    }
    const linked =
      i > from && LINKING_WORDS.has(unit.key) ? trie.child(at, (link ??= trie.wordId(LINK))) : NONE;
    if (linked !== NONE) {
      // One or more linking words (and fillers): 'is', 'has been', 'feels really'.
      let j = i;
      while (
        j < units.length &&
        j - i < 4 &&
        !(units[j] as Unit).comma &&
        (LINKING_WORDS.has((units[j] as Unit).key) || FILLER_WORDS.has((units[j] as Unit).key))
      ) {
        j++;
        walk(linked, j, fuzzy, skips, false);
      }
    }
    if (
      i > from &&
      exact === NONE &&
      skips < MAX_FILLERS &&
      (FILLER_WORDS.has(unit.key) || LINKING_WORDS.has(unit.key))
    ) {
      walk(at, i + 1, fuzzy, skips + 1, false);
    }
  };
  walk(0, from, 0, 0, false);
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

export interface FuzzyMatcher {
  /** `id`: the word's number in the trie when the caller has it (NONE: no name holds it). */
  fuzzyWord: (key: string, at: number, id?: number) => number[];
  startText: () => void;
}

/**
 * The typo rule over a trie of names (built in steps, the deletion index's): the children of a node a word may be a misspelling of, in
 * the node's order. The words the rule accepts are found once per word of the text (in the
 * deletion index, or with `typoIndex` false by comparing the word with every word of the
 * dictionary), then each node keeps those it has a child by. `startText` forgets the words of
 * the text before.
 */
export function* fuzzyMatcher(
  trie: NameTrie,
  typoIndex = true,
): Generator<void, FuzzyMatcher, void> {
  const link = trie.wordId(LINK);
  const skip = (id: number) => id === link;
  const index = typoIndex ? yield* buildTypoIndex(trie.words, (id) => !skip(id)) : undefined;
  const accepted = new Map<string, number[]>();
  const fuzzyWord = (key: string, at: number, id?: number): number[] => {
    // Only words the dictionary does not know and that are no everyday word ('would' is not
    // 'wound'), of five letters or more, and with the right first letter: typos rarely hit
    // the first letter, and short words are too ambiguous. A four-letter word may only have
    // two letters swapped ('pian' for 'pain').
    if (
      key.length < 4 ||
      (id ?? trie.wordId(key)) !== NONE ||
      COMMON_WORDS.has(key) ||
      !/^\p{L}+$/u.test(key)
    ) {
      return [];
    }
    let words = accepted.get(key);
    if (!words) {
      words = typoWords(key, trie.words, index, skip);
      accepted.set(key, words);
    }
    const found: number[] = [];
    for (const word of words) {
      const next = trie.child(at, word);
      if (next !== NONE) {
        found.push(next);
      }
    }
    return found.sort((a, b) => a - b);
  };
  return { fuzzyWord, startText: () => accepted.clear() };
}
