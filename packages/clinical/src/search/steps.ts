/**
 * Stepwise building blocks of the concept index (issue 22): a sort that yields between runs and
 * merges, and a table that numbers distinct strings without growing. Both keep a background build
 * from holding the event loop: a `Map` of a million names growing held it for half a second (each
 * rehash copies every entry at once), and the short-lived strings and entries it left behind made
 * the heap's collections longer.
 */

/** Items handled between yields (a few milliseconds of work each). */
export const STEP = 5_000;
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
export function identity(n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
  }
  return order;
}

/**
 * Numbers distinct strings (whole strings, or the text between two positions of one) in order of
 * first sight. An open-addressing table in typed arrays, allocated once for at most `capacity`
 * strings: it never rehashes, and a string is only cut out of its text when it is new.
 */
export class StringIds {
  /** The strings by number (the first `size` are set). */
  readonly keys: string[];
  size = 0;
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let buckets = 16;
    while (buckets < 2 * capacity) {
      buckets *= 2;
    }
    this.slots = new Int32Array(buckets);
    this.mask = buckets - 1;
    this.hashes = new Int32Array(capacity);
    this.keys = new Array<string>(capacity);
  }

  /** The number of `text.slice(start, end)`, given a new one when first seen. */
  idOf(text: string, start = 0, end = text.length): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    }
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    const whole = start === 0 && end === text.length;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = this.slots[slot] as number;
      if (held === 0) {
        const id = this.size++;
        this.slots[slot] = id + 1;
        this.hashes[id] = h;
        this.keys[id] = whole ? text : text.slice(start, end);
        return id;
      }
      const id = held - 1;
      if (this.hashes[id] === h && same(this.keys[id] as string, text, start, end, whole)) {
        return id;
      }
    }
  }
}

function same(key: string, text: string, start: number, end: number, whole: boolean): boolean {
  if (whole) {
    return key === text;
  }
  if (key.length !== end - start) {
    return false;
  }
  for (let i = 0; i < key.length; i++) {
    if (key.charCodeAt(i) !== text.charCodeAt(start + i)) {
      return false;
    }
  }
  return true;
}

/**
 * The distinct strings of `ids` sorted (UTF-16 code unit order), and each one's rank by its
 * number, in steps.
 */
export function* sortedDistinct(
  ids: StringIds,
): Generator<void, { keys: string[]; rank: Int32Array }, void> {
  const held = ids.keys;
  const order = yield* sortInSteps(identity(ids.size), (x, y) => {
    const a = held[x] as string;
    const b = held[y] as string;
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const keys = new Array<string>(order.length);
  const rank = new Int32Array(order.length);
  for (let r = 0; r < order.length; r++) {
    const id = order[r] as number;
    keys[r] = held[id] as string;
    rank[id] = r;
    if (r % STEP === STEP - 1) {
      yield;
    }
  }
  return { keys, rank };
}
