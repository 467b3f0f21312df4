/**
 * A trie over sorted distinct keys (the vocabulary of concept search), in typed arrays, walked by
 * the typo automaton (issue 22).
 *
 * The sorted array is already an implicit trie, but walking it means finding every child by binary
 * search over strings scattered in memory. Here the nodes are numbered breadth first, so a node's
 * children are adjacent, each a record of its letter and its first child: the walk reads the
 * records of a node's children together, and reads the rest of a child (its keys) only when the
 * child is within reach. At a million concepts the trie does not stay in the processor's caches
 * between queries and the walk's cost is its cache misses: a layout that followed sibling links to
 * records of 16 bytes paid one for nearly every child it looked at. 17 bytes per node; nodes are
 * the distinct prefixes.
 */

export interface KeyTrie {
  /**
   * Per node n, at 2n its first child and at 2n + 1 its last character (a symbol of `alphabet`):
   * node n's children are nodes[2n] .. nodes[2n + 2] (one more record closes the list); node 0 is
   * the root (the empty prefix). All a walk reads of a child it does not enter, in one record,
   * and siblings' records adjacent: entering a node costs one cache line where a letter and a
   * child list in two arrays cost two.
   */
  readonly nodes: Int32Array;
  /** A character's symbol (UTF-16 code unit → 1 ..); a character not in it meets no node. */
  readonly alphabet: Map<number, number>;
  /** Per node, its keys: keys[lo[n] .. hi[n]) start with its prefix (read when one is reached). */
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  /** 1 when a key ends at the node. */
  readonly ends: Uint8Array;
}

/** Keys read between yields while a trie is built. */
const STEP = 10_000;

/** Characters of `b` after the prefix it shares with `a`. */
function tail(a: string, b: string): number {
  let common = 0;
  while (common < a.length && common < b.length && a.charCodeAt(common) === b.charCodeAt(common)) {
    common++;
  }
  return b.length - common;
}

/** Builds the trie of `keys` (sorted, distinct), yielding every few thousand steps. */
export function* buildKeyTrie(keys: readonly string[]): Generator<void, KeyTrie, void> {
  // Count the nodes first: the arrays are allocated once, at their size (growing them meant large
  // copies, and each new buffer can set off a full collection of the heap).
  let count = 1;
  for (let k = 0; k < keys.length; k++) {
    count += tail(k > 0 ? (keys[k - 1] as string) : '', keys[k] as string);
    if (k % STEP === STEP - 1) {
      yield;
    }
  }
  // The alphabet: every character of the keys, numbered from 1 in code order.
  const codes = new Set<number>();
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    for (let i = 0; i < key.length; i++) {
      codes.add(key.charCodeAt(i));
    }
    if (k % STEP === STEP - 1) {
      yield;
    }
  }
  const alphabet = new Map([...codes].sort((a, b) => a - b).map((code, i) => [code, i + 1]));
  const nodes = new Int32Array(2 * (count + 1));
  const lo = new Int32Array(count);
  const hi = new Int32Array(count);
  const ends = new Uint8Array(count);
  hi[0] = keys.length;
  // Breadth first: a node's children are the runs of equal characters at its depth among its
  // keys, a key as long as the depth (the first, sorted) ending at the node.
  let next = 1;
  let depth = 0;
  let levelEnd = 1;
  let work = 0;
  for (let n = 0; n < count; n++) {
    if (n === levelEnd) {
      depth++;
      levelEnd = next;
    }
    const last = hi[n] as number;
    let k = lo[n] as number;
    nodes[2 * n] = next;
    if (k < last && (keys[k] as string).length === depth) {
      ends[n] = 1;
      k++;
    }
    while (k < last) {
      const c = (keys[k] as string).charCodeAt(depth);
      let end = k + 1;
      while (end < last && (keys[end] as string).charCodeAt(depth) === c) {
        end++;
      }
      lo[next] = k;
      hi[next] = end;
      nodes[2 * next + 1] = alphabet.get(c) as number;
      next++;
      work += end - k;
      k = end;
    }
    if (work > STEP) {
      work = 0;
      yield;
    }
  }
  nodes[2 * count] = next;
  return { nodes, lo, hi, ends, alphabet };
}

/** Builds the trie at once. */
export function keyTrieOf(keys: readonly string[]): KeyTrie {
  const steps = buildKeyTrie(keys);
  let step = steps.next();
  while (!step.done) {
    step = steps.next();
  }
  return step.value;
}

/**
 * The range of keys starting with `prefix`, by a walk down the trie (a few adjacent characters per
 * level, where a binary search over the keys compares strings scattered in memory).
 */
export function trieRange(trie: KeyTrie, prefix: string): [number, number] {
  const { nodes, lo, hi, alphabet } = trie;
  let node = 0;
  for (let d = 0; d < prefix.length; d++) {
    const c = alphabet.get(prefix.charCodeAt(d)) ?? 0;
    let next = -1;
    const end = nodes[2 * node + 2] as number;
    for (let child = nodes[2 * node] as number; child < end; child++) {
      if (nodes[2 * child + 1] === c) {
        next = child;
        break;
      }
    }
    if (next < 0) {
      return [0, 0];
    }
    node = next;
  }
  return [lo[node] as number, hi[node] as number];
}

/**
 * Key ranges within `max` edits of `q` (Damerau: a swap of neighbours is one edit), by a walk of
 * the trie with one edit-distance row per node, pruning every branch whose row already exceeds
 * `max`: a key within reach is reported as the range [k, k + 1); when `typing`, so is every key
 * whose start of the query's length (or one more) is within reach, as the range of that start.
 * The walk stops when `found` returns false.
 *
 * Only the band of each row within `max` of the diagonal is computed (a cell further off is more
 * than `max` already), with one cell past each end of the band holding `max + 1`: a node costs
 * 2 * max + 1 cells whatever the query's length.
 */
export function fuzzyRanges(
  trie: KeyTrie,
  q: string,
  max: number,
  typing: boolean,
  found: (lo: number, hi: number, edits: number) => boolean,
): void {
  const n = q.length;
  const { nodes, lo, hi, ends } = trie;
  const over = max + 1;
  // Row d covers cells [bandLo(d), bandHi(d)], with room for a sentinel on either side.
  const rows = Array.from({ length: n + max + 3 }, () => new Int32Array(n + 2));
  const first = rows[0] as Int32Array;
  for (let j = 0; j <= Math.min(n, max); j++) {
    first[j] = j;
  }
  if (max + 1 <= n) {
    first[max + 1] = over;
  }
  const codes = Int32Array.from({ length: n }, (_, j) => trie.alphabet.get(q.charCodeAt(j)) ?? 0);
  let going = true;
  // Visits a node whose row (rows[depth]) is within reach somewhere.
  const visit = (node: number, depth: number): void => {
    const row = rows[depth] as Int32Array;
    if (depth > 0) {
      const last = depth + max >= n && depth - max <= n ? (row[n] as number) : over;
      if (last <= max) {
        const nodeLo = lo[node] as number;
        const nodeHi = hi[node] as number;
        const own = ends[node] === 1;
        if (own) {
          going = found(nodeLo, nodeLo + 1, last);
        }
        if (going && typing && (depth === n || depth === n + 1)) {
          const start = own && depth === n ? nodeLo + 1 : nodeLo;
          if (start < nodeHi) {
            going = found(start, nodeHi, last);
          }
        }
      }
    }
    const d = depth + 1;
    const nextFrom = d > max ? d - max : 0;
    const nextTo = d + max < n ? d + max : n;
    const next = rows[d] as Int32Array;
    const prevPrev = depth > 0 ? (rows[depth - 1] as Int32Array) : undefined;
    const prevChar = depth > 0 ? (nodes[2 * node + 1] as number) : -1;
    const end = nodes[2 * node + 2] as number;
    for (let c = nodes[2 * node] as number; c < end && going; c++) {
      const ch = nodes[2 * c + 1] as number;
      let j = nextFrom;
      let rowMin = over;
      if (j === 0) {
        next[0] = d;
        rowMin = d;
        j = 1;
      } else {
        next[j - 1] = over;
      }
      for (; j <= nextTo; j++) {
        const qj = codes[j - 1] as number;
        // row[j] is row `depth`'s band or its right sentinel; next[j - 1] the left one.
        let v = (row[j] as number) + 1;
        const insert = (next[j - 1] as number) + 1;
        if (insert < v) {
          v = insert;
        }
        const replace = (row[j - 1] as number) + (qj === ch ? 0 : 1);
        if (replace < v) {
          v = replace;
        }
        if (prevPrev && j > 1 && qj === prevChar && codes[j - 2] === ch) {
          const swap = (prevPrev[j - 2] as number) + 1;
          if (swap < v) {
            v = swap;
          }
        }
        next[j] = v;
        if (v < rowMin) {
          rowMin = v;
        }
      }
      if (nextTo < n) {
        next[nextTo + 1] = over;
      }
      // A child out of reach is never visited: nothing more of it is read.
      if (rowMin <= max) {
        visit(c, d);
      }
    }
  };
  if ((hi[0] as number) > 0) {
    visit(0, 0);
  }
}
