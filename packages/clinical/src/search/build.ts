/**
 * Building the concept search index (issue 22): one entry per distinct name of a concept, numbered
 * in the ranking's order of ties, with sorted names and vocabulary, postings, heavy prefix lists
 * and the vocabulary's trie. A generator: it yields every few milliseconds of work (sorts included,
 * done as merges of sorted runs), so a background build never holds the event loop for long.
 */
import type { Concept } from '../kb/format.ts';
import { buildKeyTrie, type KeyTrie } from './key-trie.ts';
import { buildPrefixLists, type PrefixLists } from './prefix-lists.ts';
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
}

/** Items handled between yields (a few milliseconds of work each). */
const STEP = 5_000;
/** Sorted runs of a stepwise sort. */
const RUN = 8_192;

/**
 * Sorts `order` by `compare` (a total order) without holding the thread: runs of `RUN` sorted
 * natively, then merged pairwise, a yield every `STEP` items. Returns the sorted array (`order` or
 * a buffer of the same length).
 */
export function* sortInSteps(
  order: Int32Array,
  compare: (x: number, y: number) => number,
): Generator<void, Int32Array, void> {
  const n = order.length;
  for (let start = 0; start < n; start += RUN) {
    order.subarray(start, Math.min(n, start + RUN)).sort(compare);
    yield;
  }
  if (n <= RUN) {
    return order;
  }
  let from: Int32Array = order;
  let to: Int32Array = new Int32Array(n);
  let work = 0;
  for (let width = RUN; width < n; width *= 2) {
    for (let start = 0; start < n; start += 2 * width) {
      const mid = Math.min(n, start + width);
      const end = Math.min(n, start + 2 * width);
      let i = start;
      let j = mid;
      let k = start;
      while (i < mid && j < end) {
        const a = from[i] as number;
        const b = from[j] as number;
        if (compare(a, b) <= 0) {
          to[k++] = a;
          i++;
        } else {
          to[k++] = b;
          j++;
        }
        if (++work === STEP) {
          work = 0;
          yield;
        }
      }
      to.set(from.subarray(i, mid), k);
      to.set(from.subarray(j, end), k + mid - i);
    }
    const spare = from;
    from = to;
    to = spare;
  }
  return from;
}

/** The 0..n-1 identity permutation. */
function identity(n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
  }
  return order;
}

/** Gives each distinct string its rank in sorted order; `map` ends holding string → rank. */
function* sortedKeys(map: Map<string, number>): Generator<void, string[], void> {
  const unsorted = [...map.keys()];
  const order = yield* sortInSteps(identity(unsorted.length), (x, y) => {
    const a = unsorted[x] as string;
    const b = unsorted[y] as string;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const keys = new Array<string>(unsorted.length);
  for (let rank = 0; rank < order.length; rank++) {
    const key = unsorted[order[rank] as number] as string;
    keys[rank] = key;
    map.set(key, rank);
    if (rank % STEP === STEP - 1) {
      yield;
    }
  }
  return keys;
}

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
  const ids = new Int32Array(offsets[keyCount] as number);
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
    if (i % STEP === STEP - 1) {
      yield;
    }
  }
  const textKeys = yield* sortedKeys(textIds);
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
    if (i % STEP === STEP - 1) {
      yield;
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
  for (let r = 0; r < n; r++) {
    const i = order[r] as number;
    concept[r] = eConcept[i] as number;
    nameAt[r] = eName[i] as number;
    length[r] = Math.min((eText[i] as string).length, 65_535);
    text[r] = textOf[i] as number;
    if (r % STEP === STEP - 1) {
      yield;
    }
  }
  eConcept.length = 0;
  eName.length = 0;
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
  const vocabularyKeys = yield* sortedKeys(tokenIdsOf);
  // Map iteration keeps insertion order: the i-th value is the rank of first-seen token i.
  const remap = new Int32Array(vocabularyKeys.length);
  let i = 0;
  for (const rank of tokenIdsOf.values()) {
    remap[i++] = rank;
  }
  tokenIdsOf.clear();
  const tokenIds = new Int32Array(tokens.length);
  for (let k = 0; k < tokens.length; k++) {
    tokenIds[k] = remap[tokens[k] as number] as number;
    if (k % (8 * STEP) === 8 * STEP - 1) {
      yield;
    }
  }
  tokens = [];
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
  return {
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
