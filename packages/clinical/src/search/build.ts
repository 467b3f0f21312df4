/**
 * Building the concept search index (issue 22): one entry per distinct name of a concept, numbered
 * in the ranking's order of ties, with sorted names and vocabulary, postings, heavy prefix lists
 * and the vocabulary's trie. A generator: it yields every few milliseconds of work (sorts included,
 * done as merges of sorted runs), so a background build never holds the event loop for long.
 */
import { zeroed } from '../background.ts';
import type { Concept } from '../kb/format.ts';
import { buildKeyTrie, type KeyTrie } from './key-trie.ts';
import { buildPrefixLists, type PrefixLists } from './prefix-lists.ts';
import { identity, sortedDistinct, sortInSteps, STEP, StringIds } from './steps.ts';
import { normaliseText } from './text.ts';

/** The index proper: typed arrays over entries (one per distinct name of a concept). */
export interface Built {
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
  /** The vocabulary as a trie, for the typo automaton. */
  trie: KeyTrie;
  /**
   * Per entry, bit (s mod 32) set for the first letter's symbol s of each of its words: a word
   * that starts with a query word starts with its letter, a check of one number per entry.
   */
  letters: Int32Array;
}

/** Names (the canonical name and the aliases) a concept may have: an entry's name is a Uint16. */
export const NAMES_PER_CONCEPT = 65_536;

/** CSR postings of keys from `forEach(entry, add)` (entries visited in id order, so ascending). */
function* postingsOf(
  keyCount: number,
  entries: number,
  forEach: (e: number, add: (key: number) => void) => void,
): Generator<void, { offsets: Int32Array; ids: Int32Array }, void> {
  const offsets = new Int32Array(keyCount + 1);
  const count = (k: number) => {
    offsets[k + 1] = (offsets[k + 1] as number) + 1;
  };
  for (let e = 0; e < entries; e++) {
    forEach(e, count);
    if (e % STEP === STEP - 1) {
      yield;
    }
  }
  for (let k = 0; k < keyCount; k++) {
    offsets[k + 1] = (offsets[k + 1] as number) + (offsets[k] as number);
  }
  const ids = yield* zeroed(Int32Array, offsets[keyCount] as number);
  const fill = offsets.slice(0, keyCount);
  for (let e = 0; e < entries; e++) {
    forEach(e, (k) => {
      ids[fill[k] as number] = e;
      fill[k] = (fill[k] as number) + 1;
    });
    if (e % STEP === STEP - 1) {
      yield;
    }
  }
  return { offsets, ids };
}

/** Builds the index, yielding between steps so a caller can let other work run. */
export function* build(concepts: readonly Concept[]): Generator<void, Built, void> {
  // 1. One entry per distinct normalised name of each concept, in arrays sized once.
  let names = 0;
  for (let c = 0; c < concepts.length; c++) {
    const concept = concepts[c] as Concept;
    if (concept.aliases.length >= NAMES_PER_CONCEPT) {
      // Which name an entry is, is kept in 16 bits: more would read an alias as another name.
      throw new Error(
        `concept ${concept.id} has ${concept.aliases.length} aliases; concept search holds at most ${NAMES_PER_CONCEPT - 1} per concept: remove aliases from it (or split it into narrower concepts)`,
      );
    }
    names += 1 + concept.aliases.length;
    if (c % (8 * STEP) === 8 * STEP - 1) {
      yield;
    }
  }
  const eConcept = new Int32Array(names);
  const eName = new Uint16Array(names);
  let eText = new Array<string>(names);
  let n = 0;
  for (let c = 0; c < concepts.length; c++) {
    const concept = concepts[c] as Concept;
    const start = n;
    // A concept's names so far, in a set when it has many (a scan of them all was quadratic).
    const kept = concept.aliases.length > 16 ? new Set<string>() : undefined;
    for (let i = 0; i <= concept.aliases.length; i++) {
      const text = normaliseText(
        i === 0 ? concept.canonicalName : (concept.aliases[i - 1] as string),
      );
      let seen = text === '' || kept?.has(text) === true;
      for (let k = start; k < n && !seen && !kept; k++) {
        seen = eText[k] === text;
      }
      kept?.add(text);
      if (!seen) {
        eConcept[n] = c;
        eName[n] = i;
        eText[n++] = text;
      }
    }
    if (c % STEP === STEP - 1) {
      yield;
    }
  }
  // 2. Distinct names, sorted.
  const textIds = new StringIds(n);
  const textOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    textOf[i] = textIds.idOf(eText[i] as string);
    if (i % STEP === STEP - 1) {
      yield;
    }
  }
  const { keys: textKeys, rank: textRank } = yield* sortedDistinct(textIds);
  // 3. Number entries in the ranking's order of ties: shortest name first, then canonical names,
  //    then by the concept's canonical name, shortest and then alphabetical first. Search reads
  //    candidates in this order, so where many names tie the first ones read are the ones shown.
  const canonicalRank = new Int32Array(concepts.length).fill(0x7fffffff);
  for (let i = 0; i < n; i++) {
    const rank = textRank[textOf[i] as number] as number;
    textOf[i] = rank;
    if (eName[i] === 0) {
      canonicalRank[eConcept[i] as number] = rank;
    }
    if (i % STEP === STEP - 1) {
      yield;
    }
  }
  const sortKey = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = eConcept[i] as number;
    const first =
      (Math.min((eText[i] as string).length, 2047) * 2 + (eName[i] === 0 ? 0 : 1)) * 256 +
      Math.min((concepts[c] as Concept).canonicalName.length, 255);
    sortKey[i] = first * 2 ** 31 + (canonicalRank[c] as number);
    if (i % STEP === STEP - 1) {
      yield;
    }
  }
  const order = yield* sortInSteps(
    identity(n),
    (x, y) => (sortKey[x] as number) - (sortKey[y] as number) || x - y,
  );
  const concept = new Int32Array(n);
  const nameAt = new Uint16Array(n);
  const length = new Uint16Array(n);
  const text = new Int32Array(n);
  // The words of every name, counted (names are normalised: one space between words).
  let occurrences = 0;
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    const name = eText[i] as string;
    concept[r] = eConcept[i] as number;
    nameAt[r] = eName[i] as number;
    length[r] = Math.min(name.length, 65_535);
    text[r] = textOf[i] as number;
    occurrences++;
    for (let at = name.indexOf(' '); at >= 0; at = name.indexOf(' ', at + 1)) {
      occurrences++;
    }
    if (r % STEP === STEP - 1) {
      yield;
    }
  }
  // 4. Distinct tokens, sorted.
  const tokenIdsOf = new StringIds(occurrences);
  const tokenOffsets = new Int32Array(n + 1);
  const tokenIds = new Int32Array(occurrences);
  let k = 0;
  for (let r = 0; r < n; r++) {
    const name = eText[order[r] as number] as string;
    let from = 0;
    for (let at = name.indexOf(' '); at >= 0; at = name.indexOf(' ', from)) {
      tokenIds[k++] = tokenIdsOf.idOf(name, from, at);
      from = at + 1;
    }
    tokenIds[k++] = tokenIdsOf.idOf(name, from, name.length);
    tokenOffsets[r + 1] = k;
    if (r % STEP === STEP - 1) {
      yield;
    }
  }
  eText = [];
  const { keys: vocabularyKeys, rank: tokenRank } = yield* sortedDistinct(tokenIdsOf);
  for (let t = 0; t < occurrences; t++) {
    tokenIds[t] = tokenRank[tokenIds[t] as number] as number;
    if (t % (8 * STEP) === 8 * STEP - 1) {
      yield;
    }
  }
  // 5. Postings, ascending by construction; then the heavy prefix lists and the trie.
  const textPostings = yield* postingsOf(textKeys.length, n, (e, add) => add(text[e] as number));
  const tokenPostings = yield* postingsOf(vocabularyKeys.length, n, (e, add) => {
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
  const texts = yield* buildPrefixLists(textKeys, textPostings.offsets, textPostings.ids);
  const vocabulary = yield* buildPrefixLists(
    vocabularyKeys,
    tokenPostings.offsets,
    tokenPostings.ids,
  );
  const trie = yield* buildKeyTrie(vocabularyKeys);
  // 6. The first letters of each entry's words, from the trie's first level (a word's first
  // letter is the root's child whose range holds it).
  const firstLetter = new Uint8Array(vocabularyKeys.length);
  for (let c = trie.nodes[0] as number; c < (trie.nodes[2] as number); c++) {
    firstLetter.fill((trie.nodes[2 * c + 1] as number) & 31, trie.lo[c], trie.hi[c]);
  }
  const letters = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    let bits = 0;
    for (let k = tokenOffsets[e] as number; k < (tokenOffsets[e + 1] as number); k++) {
      bits |= 1 << (firstLetter[tokenIds[k] as number] as number);
    }
    letters[e] = bits;
    if (e % STEP === STEP - 1) {
      yield;
    }
  }
  return {
    letters,
    concepts,
    concept,
    nameAt,
    length,
    text,
    tokenOffsets,
    tokenIds,
    texts,
    vocabulary,
    trie,
  };
}
