/**
 * The vocabulary tokens a query token can meet (issue 22): exact or prefix (one range of the
 * sorted vocabulary) and within its allowed edits (ranges found by a walk of the vocabulary's
 * trie). One walk per query token serves both the typo tier, which reads the postings of the token
 * with the fewest, and the check of every candidate before it is scored: in a large terminology
 * most candidates of that tier hold a match of one query token but not of the others, and a range
 * look-up costs far less than an edit distance.
 */
import type { Built } from './build.ts';
import { fuzzyRanges, trieRange, type KeyTrie } from './key-trie.ts';
import { postingCount, type PrefixLists } from './prefix-lists.ts';
import { allowedEdits } from './text.ts';

export class TokenMatches {
  /** [lo, hi, edits] of vocabulary ids: the exact-or-prefix range first (edits 0), then the walk's. */
  readonly ranges: [number, number, number][];
  /** Postings under all the ranges (an entry holding two of them counts twice). */
  readonly postings: number;

  constructor(
    vocabulary: PrefixLists,
    trie: KeyTrie,
    q: string,
    typing: boolean,
    [lo, hi]: readonly [number, number],
  ) {
    this.ranges = [[lo, hi, 0]];
    let postings = postingCount(vocabulary, lo, hi);
    const max = allowedEdits(q.length);
    if (max > 0) {
      fuzzyRanges(trie, q, max, typing, (from, to, edits) => {
        this.ranges.push([from, to, edits]);
        postings += postingCount(vocabulary, from, to);
        return true;
      });
    }
    this.postings = postings;
  }
}

/** Query tokens checked by bit sets, at most (a longer query is left to scoring past the first). */
const SET_TOKENS = 8;
/** An entry's tokens matched by a bit mask each, at most. */
const MASK_TOKENS = 30;

/**
 * Bit sets over each vocabulary, one per query token, kept from search to search (a search is
 * synchronous, and clears the bits it set before it returns).
 */
const scratch = new WeakMap<PrefixLists, Int32Array[]>();

function setBits(bits: Int32Array, lo: number, hi: number, on: boolean): void {
  for (let t = lo; t < hi;) {
    const word = t >>> 5;
    const from = t & 31;
    const to = Math.min(32, from + hi - t);
    const mask = to - from === 32 ? -1 : ((1 << (to - from)) - 1) << from;
    bits[word] = on ? (bits[word] as number) | mask : (bits[word] as number) & ~mask;
    t += to - from;
  }
}

/**
 * The tokens of one query and what each can meet, as a bit set over the vocabulary per token:
 * `admits(entry)` is false only for an entry that cannot score, one without a distinct name token
 * for every query token (scoring gives each query token its own name token). Exact-or-prefix bits
 * are set at once; a token's trie walk is made when an entry first needs it, and kept for the
 * query. `release()` clears the bits; a search calls it before it returns.
 */
export class QueryMatches {
  readonly prefixes: [number, number][];
  private readonly walked: (TokenMatches | undefined)[];
  private readonly bits: Int32Array[] = [];
  /** Ranges set, as query token, lo, hi. */
  private readonly marked: number[] = [];
  private readonly masks = new Int32Array(SET_TOKENS);
  /** The query words' first letters, as in `Built.letters`. */
  private letters = 0;
  private starts = new Int32Array(64);
  private counts = new Int32Array(64);
  /** Read by nobody: keeps the fetch of `admitsAll` from being optimised away. */
  touched = 0;

  constructor(
    private readonly index: Pick<
      Built,
      'vocabulary' | 'trie' | 'tokenOffsets' | 'tokenIds' | 'letters'
    >,
    private readonly tokens: readonly string[],
  ) {
    const { vocabulary } = index;
    this.prefixes = tokens.map((q) => trieRange(index.trie, q));
    for (const q of tokens) {
      this.letters |= 1 << ((index.trie.alphabet.get(q.charCodeAt(0)) ?? 0) & 31);
    }
    this.walked = tokens.map(() => undefined);
    if (tokens.length > 1) {
      let sets = scratch.get(vocabulary);
      if (!sets) {
        sets = [];
        scratch.set(vocabulary, sets);
      }
      const words = (vocabulary.keys.length >>> 5) + 1;
      for (let j = 0; j < Math.min(tokens.length, SET_TOKENS); j++) {
        this.bits.push((sets[j] ??= new Int32Array(words)));
        this.mark(j, this.prefixes[j] as [number, number]);
      }
    }
  }

  /** Whether token j's matches are `m` (without walking). */
  is(j: number, m: TokenMatches): boolean {
    return this.walked[j] === m;
  }

  /** Token j's matches, walking the trie the first time. */
  of(j: number): TokenMatches {
    let walked = this.walked[j];
    if (!walked) {
      walked = new TokenMatches(
        this.index.vocabulary,
        this.index.trie,
        this.tokens[j] as string,
        j === this.tokens.length - 1,
        this.prefixes[j] as [number, number],
      );
      this.walked[j] = walked;
      if (j < this.bits.length) {
        for (const range of walked.ranges) {
          this.mark(j, range);
        }
      }
    }
    return walked;
  }

  admits(e: number): boolean {
    if (this.tokens.length <= 1) {
      return true; // every source of a one-token query reads only entries holding a match
    }
    const { tokenOffsets } = this.index;
    const from = tokenOffsets[e] as number;
    return this.admitsAt(from, (tokenOffsets[e + 1] as number) - from, true);
  }

  /**
   * `admits` of ids[from .. to) into out[0 ..), the entries' token lists fetched for all of them
   * before any is checked: in a large index each fetch is a cache miss, and the processor waits
   * for many at once instead of one after the other.
   */
  admitsAll(ids: Int32Array, from: number, to: number, out: Uint8Array, walk: boolean): void {
    const n = to - from;
    if (this.tokens.length <= 1) {
      out.fill(1, 0, n);
      return;
    }
    if (this.starts.length < n) {
      this.starts = new Int32Array(2 * n);
      this.counts = new Int32Array(2 * n);
    }
    const { tokenOffsets, tokenIds, letters } = this.index;
    const { starts, counts } = this;
    // Without walks a query word meets a name word only as its prefix: the name must hold a word
    // of the query word's first letter (one number per entry, before its word list is read).
    const need = walk ? 0 : this.letters;
    for (let i = 0; i < n; i++) {
      const e = ids[from + i] as number;
      if (((letters[e] as number) & need) === need) {
        starts[i] = tokenOffsets[e] as number;
        counts[i] = (tokenOffsets[e + 1] as number) - (starts[i] as number);
      } else {
        counts[i] = -1;
      }
    }
    let touched = 0;
    for (let i = 0; i < n; i++) {
      if ((counts[i] as number) > 0) {
        touched ^= tokenIds[starts[i] as number] as number;
      }
    }
    this.touched = touched;
    for (let i = 0; i < n; i++) {
      const count = counts[i] as number;
      out[i] = count >= 0 && this.admitsAt(starts[i] as number, count, walk) ? 1 : 0;
    }
  }

  /**
   * `admits` of the entry whose tokens are tokenIds[from .. from + count). Without `walk`, no
   * token is walked: a token meets a name token by its exact-or-prefix range (or by a walk made
   * already), the check of the tokens tier, whose names hold every query token so.
   */
  private admitsAt(from: number, count: number, walk: boolean): boolean {
    const q = this.tokens.length;
    const k = Math.min(count, MASK_TOKENS);
    if (k < q) {
      return k === MASK_TOKENS; // with fewer name tokens than query tokens, one has none
    }
    // The walk only for a token that meets no name token by its exact-or-prefix range; every
    // token's walk only when those bits do not give each query token a name token of its own.
    const n = this.bits.length;
    const masks = this.masks;
    let partial = false;
    for (let j = 0; j < n; j++) {
      let m = this.mask(j, from, k);
      const unwalked =
        walk && !this.walked[j] && allowedEdits((this.tokens[j] as string).length) > 0;
      if (m === 0 && unwalked) {
        this.of(j);
        m = this.mask(j, from, k);
      } else if (unwalked) {
        partial = true;
      }
      if (m === 0) {
        return false;
      }
      masks[j] = m;
    }
    if (distinct(masks, n)) {
      return true;
    }
    if (!partial) {
      return false;
    }
    for (let j = 0; j < n; j++) {
      this.of(j);
      masks[j] = this.mask(j, from, k);
    }
    return distinct(masks, n);
  }

  release(): void {
    const marked = this.marked;
    for (let i = 0; i < marked.length; i += 3) {
      setBits(
        this.bits[marked[i] as number] as Int32Array,
        marked[i + 1] as number,
        marked[i + 2] as number,
        false,
      );
    }
    marked.length = 0;
  }

  private mark(j: number, [lo, hi]: readonly number[]): void {
    if ((lo as number) < (hi as number)) {
      setBits(this.bits[j] as Int32Array, lo as number, hi as number, true);
      this.marked.push(j, lo as number, hi as number);
    }
  }

  /** Bit i set when name token i of the entry (of `k` from `from`) meets query token j. */
  private mask(j: number, from: number, k: number): number {
    const bits = this.bits[j] as Int32Array;
    const ids = this.index.tokenIds;
    let m = 0;
    for (let i = 0; i < k; i++) {
      const t = ids[from + i] as number;
      m |= (((bits[t >>> 5] as number) >>> (t & 31)) & 1) << i;
    }
    return m;
  }
}

/** Query tokens up to which the distinct-token condition is checked over every subset. */
const HALL_TOKENS = 6;

/** Whether every query token can have a name token of its own (Hall: every subset of query tokens meets at least as many name tokens). */
function distinct(masks: Int32Array, q: number): boolean {
  if (q > HALL_TOKENS) {
    return true; // each has one (checked by the caller); scoring decides the rest
  }
  for (let subset = 1; subset < 1 << q; subset++) {
    let union = 0;
    let size = 0;
    for (let j = 0; j < q; j++) {
      if (subset & (1 << j)) {
        union |= masks[j] as number;
        size++;
      }
    }
    if (bitCount(union) < size) {
      return false;
    }
  }
  return true;
}

function bitCount(v: number): number {
  let n = v - ((v >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
