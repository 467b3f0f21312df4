/**
 * Sorted keys with a postings list each, searched by prefix, for concept search (issue 22).
 *
 * The keys (vocabulary tokens, or whole normalised names) are sorted, so the keys that start with a
 * prefix are one range, found by binary search; the sorted array is also an implicit trie (a
 * node's children are the runs of equal characters at its depth), walked by the typo automaton.
 * Postings are entry ids, ascending, and entry ids are given in the order of the entries' length,
 * so the first ids of a union are the best-placed entries. For every prefix whose range holds more
 * than `HEAVY` postings, the first `TOP` distinct ids of the union are kept ready ("heavy lists"):
 * a short prefix costs the same as a long one until a search needs more than those.
 */

/** A prefix range with more postings than this keeps its first ids ready. */
export const HEAVY = 256;
/** How many ids a heavy prefix keeps ready. */
export const TOP = 64;
/**
 * A prefix with more postings than this keeps `TOP_CROWDED` ids ready: enough for a page and the
 * ties a search reads past it (a short prefix of a large vocabulary, read past 64 ids, meant a
 * pass over tens of thousands of postings). Few prefixes are this crowded.
 */
export const CROWDED = 16_384;
export const TOP_CROWDED = 512;

/** The ids kept ready for a prefix of `count` postings. */
export const topOf = (count: number): number => (count > CROWDED ? TOP_CROWDED : TOP);

export interface PrefixLists {
  /** Sorted (UTF-16 code unit order), distinct. */
  readonly keys: readonly string[];
  /** Postings of key k: ids[offsets[k] .. offsets[k + 1]), ascending and distinct. */
  readonly offsets: Int32Array;
  readonly ids: Int32Array;
  /** The first `topOf(count)` distinct ids under each prefix holding more than `HEAVY` postings. */
  readonly heavy: Map<string, Int32Array>;
}

/** First index whose key is not below `key`. */
export function lowerBound(keys: readonly string[], key: string, lo = 0, hi = keys.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** The range of keys starting with `prefix`. */
export function prefixRange(keys: readonly string[], prefix: string): [number, number] {
  const lo = lowerBound(keys, prefix);
  return [lo, lowerBound(keys, `${prefix}\uffff`, lo)];
}

/** End of the run of keys in [start, hi) that have the same character at `depth` as keys[start]. */
export function childEnd(
  keys: readonly string[],
  start: number,
  hi: number,
  depth: number,
): number {
  const c = (keys[start] as string).charCodeAt(depth);
  let lo = start + 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string).charCodeAt(depth) <= c) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

export function postingCount(lists: PrefixLists, lo: number, hi: number): number {
  return (lists.offsets[hi] as number) - (lists.offsets[lo] as number);
}

/** Sorts and removes repeats in place; returns the distinct prefix, at most `cap` long. */
export function sortDistinct(values: Int32Array, cap: number): Int32Array {
  values.sort();
  let n = 0;
  for (let i = 0; i < values.length && n < cap; i++) {
    const v = values[i] as number;
    if (n === 0 || values[n - 1] !== v) {
      values[n++] = v;
    }
  }
  return values.subarray(0, n);
}

/** Every id under keys [lo, hi), ascending and distinct (at most `cap`). */
export function collect(lists: PrefixLists, lo: number, hi: number, cap = Infinity): Int32Array {
  const from = lists.offsets[lo] as number;
  const to = lists.offsets[hi] as number;
  if (hi - lo === 1) {
    return lists.ids.subarray(from, Math.min(to, from + cap));
  }
  return sortDistinct(lists.ids.slice(from, to), cap);
}

/** The first `cap` distinct ids of two ascending lists. */
function mergeCap(a: Int32Array, b: Int32Array, cap: number): Int32Array {
  if (a.length === 0) {
    return b.length <= cap ? b : b.subarray(0, cap);
  }
  const out = new Int32Array(Math.min(cap, a.length + b.length));
  let i = 0;
  let j = 0;
  let n = 0;
  while (n < out.length && (i < a.length || j < b.length)) {
    const x = i < a.length ? (a[i] as number) : Infinity;
    const y = j < b.length ? (b[j] as number) : Infinity;
    const v = x <= y ? x : y;
    if (x === v) {
      i++;
    }
    if (y === v) {
      j++;
    }
    out[n++] = v;
  }
  return n === out.length ? out : out.subarray(0, n);
}

/** Postings copied between yields while heavy lists are built. */
const STEP = 10_000;

/** A node of the implicit trie being merged: its range, depth, next child and list so far. */
interface Frame {
  lo: number;
  hi: number;
  depth: number;
  /** The first key of the next child to merge. */
  start: number;
  list: Int32Array;
}

/**
 * Adds the heavy lists to sorted keys and their postings (CSR), yielding every few thousand.
 *
 * Bottom-up over the implicit trie (a heavy node's list merges its children's lists), by a loop
 * with its own stack: a recursion as deep as the keys' longest shared prefix overflowed the call
 * stack on names sharing thousands of characters. A chain of single children (every node of it has
 * the same range, so the same list) is one node, at the chain's end: a range's heavy list is read
 * under the range's common prefix (`RangeCursor`), which is that end, so the nodes above it were
 * never read.
 */
export function* buildPrefixLists(
  keys: readonly string[],
  offsets: Int32Array,
  ids: Int32Array,
): Generator<void, PrefixLists, void> {
  const lists = { keys, offsets, ids, heavy: new Map<string, Int32Array>() };
  let work = 0;
  // The node of [lo, hi) at `depth` or below it down its chain, if heavy.
  const open = (lo: number, hi: number, depth: number): Frame | undefined => {
    if (postingCount(lists, lo, hi) <= HEAVY) {
      return undefined;
    }
    const first = keys[lo] as string;
    const last = keys[hi - 1] as string;
    let end = depth;
    while (
      end < first.length &&
      end < last.length &&
      first.charCodeAt(end) === last.charCodeAt(end)
    ) {
      end++;
    }
    work += end - depth;
    const own = first.length === end;
    return {
      lo,
      hi,
      depth: end,
      start: own ? lo + 1 : lo,
      list: own ? collect(lists, lo, lo + 1, TOP) : new Int32Array(0),
    };
  };
  const root = keys.length > 0 ? open(0, keys.length, 0) : undefined;
  const stack: Frame[] = root ? [root] : [];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.start < frame.hi) {
      const end = childEnd(keys, frame.start, frame.hi, frame.depth);
      const child = open(frame.start, end, frame.depth + 1);
      if (child) {
        stack.push(child);
        continue;
      }
      frame.list = mergeCap(frame.list, collect(lists, frame.start, end, TOP), TOP);
      work += postingCount(lists, frame.start, end) + 16;
      frame.start = end;
    } else {
      stack.pop();
      if (frame.depth > 0) {
        lists.heavy.set((keys[frame.lo] as string).slice(0, frame.depth), frame.list);
      }
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.list = mergeCap(parent.list, frame.list, TOP);
        parent.start = frame.hi;
      }
    }
    if (work > STEP) {
      work = 0;
      yield;
    }
  }
  // The crowded prefixes, each by one pass over its postings (their children's lists are cut at
  // `TOP`, too short to merge).
  for (const [prefix, list] of lists.heavy) {
    const [lo, hi] = prefixRange(keys, prefix);
    if (list.length === TOP && postingCount(lists, lo, hi) > CROWDED) {
      lists.heavy.set(prefix, firstDistinct(lists, lo, hi, TOP_CROWDED));
      yield;
    }
  }
  return lists;
}

/** Adds the heavy lists at once; see `buildPrefixLists`. */
export function createPrefixLists(
  keys: readonly string[],
  offsets: Int32Array,
  ids: Int32Array,
): PrefixLists {
  const steps = buildPrefixLists(keys, offsets, ids);
  let step = steps.next();
  while (!step.done) {
    step = steps.next();
  }
  return step.value;
}

export function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) {
    i++;
  }
  return a.slice(0, i);
}

/** Scratch of `idsAfter`: one search runs at a time. */
let after = new Int32Array(1024);

/**
 * The smallest distinct ids above `last` under the key ranges [lo, hi) of `ranges`, ascending,
 * about `count` of them (every id up to the count-th smallest, so a next call goes on from the
 * last), and whether none is left: one pass over the postings and a quickselect, not a sort of
 * them all (a short prefix of a large vocabulary has tens of thousands). With `only`, of the ids
 * it lets through (a cheap necessary condition: the others are never sorted).
 */
export function idsAfter(
  lists: PrefixLists,
  ranges: readonly (readonly number[])[],
  last: number,
  count: number,
  only?: (id: number) => boolean,
): { ids: Int32Array; complete: boolean } {
  let total = 0;
  for (const [lo, hi] of ranges) {
    total += postingCount(lists, lo as number, hi as number);
  }
  if (after.length < total) {
    after = new Int32Array(2 * total);
  }
  let n = 0;
  for (const [lo, hi] of ranges) {
    const to = lists.offsets[hi as number] as number;
    for (let p = lists.offsets[lo as number] as number; p < to; p++) {
      const id = lists.ids[p] as number;
      if (id > last && (!only || only(id))) {
        after[n++] = id;
      }
    }
  }
  if (n <= count) {
    return { ids: sortDistinct(after.slice(0, n), n), complete: true };
  }
  const bound = select(after, n, count - 1);
  let m = 0;
  for (let i = 0; i < n; i++) {
    if ((after[i] as number) <= bound) {
      after[m++] = after[i] as number;
    }
  }
  return { ids: sortDistinct(after.slice(0, m), m), complete: false };
}

/** The first `cap` distinct ids under keys [lo, hi) (all of them when fewer). */
function firstDistinct(lists: PrefixLists, lo: number, hi: number, cap: number): Int32Array {
  for (let want = cap; ; want *= 2) {
    // Ids repeat when an entry holds two keys of the range: ask again for more.
    const { ids, complete } = idsAfter(lists, [[lo, hi]], -1, want);
    if (complete || ids.length >= cap) {
      return ids.length > cap ? ids.slice(0, cap) : ids;
    }
  }
}

/** The k-th smallest of values[0 .. n) (values are reordered), by quickselect. */
function select(values: Int32Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const a = values[lo] as number;
    const b = values[(lo + hi) >> 1] as number;
    const c = values[hi] as number;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) < pivot) {
        i++;
      }
      while ((values[j] as number) > pivot) {
        j--;
      }
      if (i <= j) {
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) {
      hi = j;
    } else if (k >= i) {
      lo = i;
    } else {
      return values[k] as number;
    }
  }
  return values[k] as number;
}
