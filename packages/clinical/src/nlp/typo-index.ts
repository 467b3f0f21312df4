import { runSteps, zeroed } from '../background.ts';
import { allowedEdits } from '../search/concept-search.ts';
import { editsWithin } from '../search/text.ts';

/*
 * The typo rule of the recogniser and a symmetric-deletion index (SymSpell-style) over the words of
 * the dictionary, so that finding the words a misspelt word may stand for costs a number of hash
 * look-ups set by the word's length, not by the size of the vocabulary (issue 22 item 3).
 *
 * Two words within d edits (optimal string alignment: insertions, deletions, substitutions and
 * adjacent transpositions) become the same string once at most d letters are deleted from each: a
 * substitution or a transposition costs one deletion on each side, an insertion one on one side.
 * So every word is indexed under the hashes of its deletions of up to two letters (one for a word
 * of four letters), and a word of the text looks up its own deletions: any word the rule accepts
 * is among the candidates, which the rule then checks one by one. The first letter is never
 * deleted: the rule requires it to be the same, and two words with the same first letter are
 * within d edits exactly when their remainders are.
 */

/** A word with its doubled letters single: 'diarhea' and 'diarrhea', 'chils' and 'chills'. */
const undoubledCache = new Map<string, string>();
const undouble = (word: string): string => word.replace(/(\p{L})\1+/gu, '$1');
export const undoubled = (word: string): string => {
  let single = undoubledCache.get(word);
  if (single === undefined) {
    single = undouble(word);
    if (undoubledCache.size < 100_000) {
      undoubledCache.set(word, single);
    }
  }
  return single;
};
const letter = /^\p{L}$/u;
const isLetter = (code: number): boolean =>
  code < 128 ? (code | 32) >= 97 && (code | 32) <= 122 : letter.test(String.fromCodePoint(code));

/**
 * Whether `undoubled(a) === undoubled(b)`, by one walk of both and without making either: a
 * dictionary word is compared once per misspelt word it is a candidate for, and a cache of their
 * single forms would be one more thing that grows with the dictionary.
 */
export function sameUndoubled(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const code = a.codePointAt(i) as number;
    if (code !== b.codePointAt(j)) {
      return false;
    }
    const width = code > 0xffff ? 2 : 1;
    i += width;
    j += width;
    if (isLetter(code)) {
      while (a.codePointAt(i) === code) {
        i += width;
      }
      while (b.codePointAt(j) === code) {
        j += width;
      }
    }
  }
  return i >= a.length && j >= b.length;
}

export const sameLetters = (a: string, b: string) =>
  [...a].sort().join('') === [...b].sort().join('');

/**
 * Edits allowed to a word with the same letters as the name's word in another order: two for a
 * word of five or six letters ('athsma' for 'asthma': one letter moved), otherwise the usual.
 */
const anagramEdits = (key: string): number => (key.length === 5 || key.length === 6 ? 2 : 0);

/** The usual edit budget of a word of the text: one edit for four to six letters, two above. */
const editsOf = (key: string): number => (key.length === 4 ? 1 : allowedEdits(key.length));

/** The most edits the rule ever accepts for this word (its budget or its anagram budget). */
const boundOf = (key: string): number => Math.max(editsOf(key), anagramEdits(key));

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
 * How close a dictionary word is to a word of the text under the typo rule: its edit distance
 * when the rule accepts it (a word of the same letters with its doubled letters single counts as
 * one more than the budget when it is further), or -1 when the rule does not accept it. The rule:
 * the same first letter, at least four letters, and the same doubled-letter-free form or within
 * the edit budget (for a four-letter word only a four-letter anagram).
 */
export function typoCloseness(key: string, word: string): number {
  if (word.length < 4 || word.charCodeAt(0) !== key.charCodeAt(0)) {
    return -1;
  }
  const bound = boundOf(key);
  // The distance when within `bound`, else more (every test below reads it against `bound` or
  // less), in reused rows: this runs for every candidate, and a larger dictionary gives more.
  const d = editsWithin(key, word, word.length, bound);
  if (typoAccepted(key, word, d, editsOf(key))) {
    return d;
  }
  return sameUndoubled(word, key) ? Math.min(d, bound + 1) : -1;
}

// Deletions are hashed in constant time each from the word's prefix hashes: a polynomial hash
// modulo 2^32 (H(xy) = H(x)·P^|y| + H(y)), then mixed (murmur3's finaliser) for the buckets.
const P = 0x01000193;
const POWERS = new Int32Array(1024);
POWERS[0] = 1;
for (let i = 1; i < POWERS.length; i++) {
  POWERS[i] = Math.imul(POWERS[i - 1] as number, P);
}
let prefix = new Int32Array(1024);
const power = (n: number): number => POWERS[n] as number;
// H(word[i, j)) from the prefix hashes.
const segment = (i: number, j: number): number =>
  ((prefix[j] as number) - Math.imul(prefix[i] as number, power(j - i))) | 0;
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The hash of a whole string, as `forEachDeletion` gives it for no deletion. */
function hashOf(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) {
    h = (Math.imul(h, P) + word.charCodeAt(i)) | 0;
  }
  return mix(h);
}

/**
 * Calls `visit` with the hash of each deletion of up to `budget` letters (never the first),
 * deletions that give the same string more than once included.
 */
function forEachDeletion(word: string, budget: number, visit: (hash: number) => void): void {
  const n = word.length;
  if (n >= POWERS.length) {
    return visit(hashOf(word)); // no word of the dictionary is a thousand letters long
  }
  if (prefix.length <= n) {
    prefix = new Int32Array(n + 1);
  }
  prefix[0] = 0;
  for (let i = 0; i < n; i++) {
    prefix[i + 1] = (Math.imul(prefix[i] as number, P) + word.charCodeAt(i)) | 0;
  }
  visit(mix(prefix[n] as number));
  if (budget < 1) {
    return;
  }
  for (let a = 1; a < n; a++) {
    // word[0, a) then word(a, n): H = H(word[0, a))·P^(n-a-1) + H(word(a, n)).
    const head = prefix[a] as number;
    visit(mix((Math.imul(head, power(n - a - 1)) + segment(a + 1, n)) | 0));
    if (budget >= 2) {
      for (let b = a + 1; b < n; b++) {
        const middle = (Math.imul(head, power(b - a - 1)) + segment(a + 1, b)) | 0;
        visit(mix((Math.imul(middle, power(n - b - 1)) + segment(b + 1, n)) | 0));
      }
    }
  }
}

/** How many hashes `forEachDeletion` gives. */
function deletionCount(length: number, budget: number): number {
  if (length >= POWERS.length || budget < 1) {
    return 1;
  }
  const m = length - 1;
  return 1 + m + (budget >= 2 ? (m * (m - 1)) / 2 : 0);
}

/** Deletions a dictionary word is indexed under: four letters meet only four-letter words. */
const indexedBudget = (word: string): number => (word.length === 4 ? 1 : 2);

/** A second 16-bit hash of a deletion, kept with each posting to skip other deletions' words. */
const tagOf = (hash: number): number => Math.imul(hash, 0x9e3779b1) >>> 16;

/** The typed arrays of a `TypoIndex`. */
export interface TypoIndexArrays {
  /** Postings of bucket b: offsets[b] .. offsets[b + 1] (a power of two buckets, plus one). */
  offsets: Uint32Array;
  postings: Int32Array;
  tags: Uint16Array;
}

/** Words hashed between yields while the index is built (a few milliseconds of work). */
const STEP = 2_000;

/**
 * Builds the index's arrays, yielding every few thousand words: one hashing pass into a scratch
 * array (the postings of each word in turn), then the postings placed by bucket.
 */
function* typoIndexArrays(
  words: readonly string[],
  indexed: (id: number) => boolean,
): Generator<void, TypoIndexArrays, void> {
  const counts = new Int32Array(words.length);
  const singles: (string | undefined)[] = [];
  let total = 0;
  for (let id = 0; id < words.length; id++) {
    const word = words[id] as string;
    if (word.length >= 4 && indexed(id)) {
      // Not through the cache: it is kept for the words of the texts.
      const single = undouble(word);
      singles[id] = single === word ? undefined : single;
      const count = deletionCount(word.length, indexedBudget(word)) + (single === word ? 0 : 1);
      counts[id] = count;
      total += count;
    }
    if (id % (8 * STEP) === 8 * STEP - 1) {
      yield;
    }
  }
  const hashes = new Uint32Array(total);
  let filled = 0;
  const keep = (hash: number) => {
    hashes[filled++] = hash;
  };
  for (let id = 0; id < words.length; id++) {
    if (counts[id] !== 0) {
      const word = words[id] as string;
      forEachDeletion(word, indexedBudget(word), keep);
      const single = singles[id];
      if (single !== undefined) {
        keep(hashOf(single));
      }
    }
    if (id % STEP === STEP - 1) {
      yield;
    }
  }
  let buckets = 1024;
  while (buckets * 4 < total) {
    buckets *= 2;
  }
  const mask = buckets - 1;
  const offsets = new Uint32Array(buckets + 1);
  // Postings placed between yields: each is a write to a random bucket (a cache miss or more).
  // The loops are plain functions called per step: a generator's own loops run unoptimised longer.
  const place = 16 * STEP;
  for (let p = 0; p < total; p += place) {
    countBuckets(hashes, offsets, mask, p, Math.min(total, p + place));
    yield;
  }
  for (let i = 0; i < buckets; i += 128 * STEP) {
    sumOffsets(offsets, i, Math.min(buckets, i + 128 * STEP));
    yield;
  }
  const placing = {
    counts,
    hashes,
    mask,
    cursor: offsets.slice(0, buckets),
    postings: yield* zeroed(Int32Array, total),
    tags: yield* zeroed(Uint16Array, total),
    id: 0,
    p: 0,
  };
  while (placing.id < words.length) {
    placePostings(placing, place);
    yield;
  }
  const { postings, tags } = placing;
  return { offsets, postings, tags };
}

/** Counts the postings [from, to) by bucket (in offsets[bucket + 1]). */
function countBuckets(
  hashes: Uint32Array,
  offsets: Uint32Array,
  mask: number,
  from: number,
  to: number,
): void {
  for (let p = from; p < to; p++) {
    const b = ((hashes[p] as number) & mask) + 1;
    offsets[b] = (offsets[b] as number) + 1;
  }
}

/** Running sums of the bucket counts [from, to). */
function sumOffsets(offsets: Uint32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number);
  }
}

/** Places the postings of the next words, about `budget` of them, in their buckets. */
function placePostings(
  s: {
    counts: Int32Array;
    hashes: Uint32Array;
    mask: number;
    cursor: Uint32Array;
    postings: Int32Array;
    tags: Uint16Array;
    id: number;
    p: number;
  },
  budget: number,
): void {
  const { counts, hashes, mask, cursor, postings, tags } = s;
  let { id, p } = s;
  // At most `budget` postings or about 4 ms: the first call runs before the loop is optimised.
  const end = p + budget;
  const until = performance.now() + 4;
  for (let n = 0; id < counts.length && p < end; id++) {
    if (++n % 256 === 0 && performance.now() > until) {
      break;
    }
    for (let k = 0; k < (counts[id] as number); k++, p++) {
      const hash = hashes[p] as number;
      const b = hash & mask;
      const at = cursor[b] as number;
      cursor[b] = at + 1;
      postings[at] = id;
      tags[at] = tagOf(hash);
    }
  }
  s.id = id;
  s.p = p;
}

/** Builds a `TypoIndex` of `words` (by number) for which `indexed` holds, in steps. */
export function* buildTypoIndex(
  words: readonly string[],
  indexed: (id: number) => boolean,
): Generator<void, TypoIndex, void> {
  return new TypoIndex(words, yield* typoIndexArrays(words, indexed));
}

/**
 * The deletion index: buckets by hash (a power of two, about four postings each), each posting a
 * word number and the deletion's tag, all in typed arrays (seven bytes or so a posting).
 */
export class TypoIndex {
  private readonly offsets: Uint32Array;
  private readonly postings: Int32Array;
  private readonly tags: Uint16Array;
  private readonly mask: number;
  private readonly seen: Int32Array;
  private stamp = 0;

  /** Indexes `words` (by number) for which `indexed` holds; see `buildTypoIndex`. */
  constructor(words: readonly string[], indexed: (id: number) => boolean);
  /** An index already built (by `buildTypoIndex`). */
  constructor(words: readonly string[], built: TypoIndexArrays);
  constructor(
    private readonly words: readonly string[],
    from: ((id: number) => boolean) | TypoIndexArrays,
  ) {
    const built = typeof from === 'function' ? runSteps(typoIndexArrays(words, from)) : from;
    this.offsets = built.offsets;
    this.postings = built.postings;
    this.tags = built.tags;
    this.mask = built.offsets.length - 2;
    this.seen = new Int32Array(words.length);
  }

  /** Postings held (one per indexed deletion of a word). */
  get size(): number {
    return this.postings.length;
  }

  /** Every indexed word sharing a deletion with `key`, once each (unchecked candidates). */
  candidates(key: string, visit: (id: number) => void): void {
    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    const look = (hash: number) => {
      const tag = tagOf(hash);
      const bucket = hash & this.mask;
      for (let p = this.offsets[bucket] as number; p < (this.offsets[bucket + 1] as number); p++) {
        // The tag first: a posting (another memory line) is read only when its tag matches.
        if (this.tags[p] === tag) {
          const id = this.postings[p] as number;
          if (this.seen[id] !== this.stamp) {
            this.seen[id] = this.stamp;
            visit(id);
          }
        }
      }
    };
    forEachDeletion(key, boundOf(key), look);
    const single = undoubled(key);
    if (single !== key) {
      look(hashOf(single));
    }
  }

  /** The word numbered `id`. */
  word(id: number): string {
    return this.words[id] as string;
  }
}

/** At most this many dictionary words stand for one misspelt word: the closest are kept. */
export const TYPO_CANDIDATES_MAX = 16;

/**
 * The dictionary words (by number, ascending) the typo rule accepts for `key`: from the index, or
 * with `index` undefined by comparing `key` with every word (the reference the index must match).
 * When more than `TYPO_CANDIDATES_MAX` are accepted the closest are kept, ties by number.
 */
export function typoWords(
  key: string,
  words: readonly string[],
  index: TypoIndex | undefined,
  skip: (id: number) => boolean,
): number[] {
  const found: [number, number][] = [];
  const check = (id: number) => {
    const closeness = skip(id) ? -1 : typoCloseness(key, words[id] as string);
    if (closeness >= 0) {
      found.push([id, closeness]);
    }
  };
  if (index) {
    index.candidates(key, check);
  } else {
    for (let id = 0; id < words.length; id++) {
      check(id);
    }
  }
  if (found.length > TYPO_CANDIDATES_MAX) {
    found.sort((a, b) => a[1] - b[1] || a[0] - b[0]).length = TYPO_CANDIDATES_MAX;
  }
  return found.map(([id]) => id).sort((a, b) => a - b);
}
