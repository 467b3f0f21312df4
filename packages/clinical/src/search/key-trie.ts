/**
 * A trie over sorted distinct keys (the vocabulary of concept search), in typed arrays, walked by
 * the typo automaton (issue 22).
 *
 * The sorted array is already an implicit trie, but walking it means finding every child by binary
 * search over strings scattered in memory; at a million concepts that walk was most of a query's
 * time. Here each node holds its range of keys, its first child and next sibling, so the walk reads
 * a few adjacent numbers per node. About 16 bytes per node; nodes are the distinct prefixes.
 */

export interface KeyTrie {
  /** Node n's keys are keys[lo[n] .. hi[n]); node 0 is the root (the empty prefix). */
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  /** First child, -1 for none; children in key order. */
  readonly child: Int32Array;
  /** Next sibling, -1 for none. */
  readonly sibling: Int32Array;
  /** The node's last character (UTF-16 code unit); 1 in `ends` when a key ends at the node. */
  readonly char: Uint16Array;
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

/** Builds the trie of `keys` (sorted, distinct), yielding every few thousand keys. */
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
  const lo = new Int32Array(count);
  const hi = new Int32Array(count);
  const child = new Int32Array(count).fill(-1);
  const sibling = new Int32Array(count).fill(-1);
  const char = new Uint16Array(count);
  const ends = new Uint8Array(count);
  const lastChild = new Int32Array(count).fill(-1);
  hi[0] = keys.length;
  let next = 1;
  // The path of the previous key: path[d] is its node at depth d.
  const path: number[] = [0];
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const common = key.length - tail(k > 0 ? (keys[k - 1] as string) : '', key);
    while (path.length - 1 > common) {
      hi[path.pop() as number] = k;
    }
    for (let d = common; d < key.length; d++) {
      const node = next++;
      const parent = path[path.length - 1] as number;
      lo[node] = k;
      char[node] = key.charCodeAt(d);
      if (lastChild[parent] === -1) {
        child[parent] = node;
      } else {
        sibling[lastChild[parent] as number] = node;
      }
      lastChild[parent] = node;
      path.push(node);
    }
    ends[path[path.length - 1] as number] = 1;
    if (k % STEP === STEP - 1) {
      yield;
    }
  }
  while (path.length > 1) {
    hi[path.pop() as number] = keys.length;
  }
  return { lo, hi, child, sibling, char, ends };
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
 * Key ranges within `max` edits of `q` (Damerau: a swap of neighbours is one edit), by a walk of
 * the trie with one edit-distance row per node, pruning every branch whose row already exceeds
 * `max`: a key within reach is reported as the range [k, k + 1); when `typing`, so is every key
 * whose start of the query's length (or one more) is within reach, as the range of that start.
 * The walk stops when `found` returns false.
 */
export function fuzzyRanges(
  trie: KeyTrie,
  q: string,
  max: number,
  typing: boolean,
  found: (lo: number, hi: number, edits: number) => boolean,
): void {
  const n = q.length;
  const { lo, hi, child, sibling, char, ends } = trie;
  const rows = Array.from({ length: n + max + 3 }, () => new Int32Array(n + 1));
  const first = rows[0] as Int32Array;
  for (let j = 0; j <= n; j++) {
    first[j] = j;
  }
  const codes = Int32Array.from({ length: n }, (_, j) => q.charCodeAt(j));
  let going = true;
  const visit = (node: number, depth: number): void => {
    const row = rows[depth] as Int32Array;
    const nodeLo = lo[node] as number;
    const nodeHi = hi[node] as number;
    const own = ends[node] === 1;
    if (depth > 0) {
      const last = row[n] as number;
      if (last <= max) {
        if (own) {
          going = found(nodeLo, nodeLo + 1, last);
        }
        if (going && typing && (depth === n || depth === n + 1)) {
          const from = own && depth === n ? nodeLo + 1 : nodeLo;
          if (from < nodeHi) {
            going = found(from, nodeHi, last);
          }
        }
      }
      let rowMin = row[0] as number;
      for (let j = 1; j <= n; j++) {
        const v = row[j] as number;
        if (v < rowMin) {
          rowMin = v;
        }
      }
      if (rowMin > max) {
        return;
      }
    }
    const next = rows[depth + 1] as Int32Array;
    const prevPrev = depth > 0 ? (rows[depth - 1] as Int32Array) : undefined;
    const prevChar = depth > 0 ? (char[node] as number) : -1;
    for (let c = child[node] as number; c >= 0 && going; c = sibling[c] as number) {
      const ch = char[c] as number;
      next[0] = depth + 1;
      for (let j = 1; j <= n; j++) {
        const qj = codes[j - 1] as number;
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
      }
      visit(c, depth + 1);
    }
  };
  if ((hi[0] as number) > 0) {
    visit(0, 0);
  }
}
