/**
 * A trie over sorted distinct keys (the vocabulary of concept search), in typed arrays, walked by
 * the typo automaton (issue 22).
 *
 * The sorted array is already an implicit trie, but walking it means finding every child by binary
 * search over strings scattered in memory. Here the nodes are numbered breadth first, so a node's
 * children are adjacent: the walk reads their characters together, and touches a child's own
 * record (its keys, its children) only when the child is within reach. At a million concepts the
 * trie is far larger than the processor's caches, and a walk that followed sibling links paid a
 * cache miss for every child it looked at. About 18 bytes per node; nodes are the distinct
 * prefixes.
 */

export interface KeyTrie {
  /**
   * Per node n, at 4n: the first of its keys, one past its last (keys[lo .. hi) start with the
   * node's prefix), its first child, and 1 when a key ends at it. Node 0 is the root (the empty
   * prefix); node n's children are first(n) .. first(n + 1) (a last record closes the list).
   */
  readonly nodes: Int32Array;
  /** Per node, its last character (UTF-16 code unit). */
  readonly char: Uint16Array;
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
  const nodes = new Int32Array(4 * (count + 1));
  const char = new Uint16Array(count + 1);
  nodes[1] = keys.length;
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
    const hi = nodes[4 * n + 1] as number;
    let k = nodes[4 * n] as number;
    nodes[4 * n + 2] = next;
    if (k < hi && (keys[k] as string).length === depth) {
      nodes[4 * n + 3] = 1;
      k++;
    }
    while (k < hi) {
      const c = (keys[k] as string).charCodeAt(depth);
      let end = k + 1;
      while (end < hi && (keys[end] as string).charCodeAt(depth) === c) {
        end++;
      }
      nodes[4 * next] = k;
      nodes[4 * next + 1] = end;
      char[next] = c;
      next++;
      work += end - k;
      k = end;
    }
    if (work > STEP) {
      work = 0;
      yield;
    }
  }
  nodes[4 * count + 2] = next;
  return { nodes, char };
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
  const { nodes, char } = trie;
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
  const codes = Int32Array.from({ length: n }, (_, j) => q.charCodeAt(j));
  let going = true;
  // Visits a node whose row (rows[depth]) is within reach somewhere.
  const visit = (node: number, depth: number): void => {
    const row = rows[depth] as Int32Array;
    const record = 4 * node;
    if (depth > 0) {
      const last = depth + max >= n && depth - max <= n ? (row[n] as number) : over;
      if (last <= max) {
        const nodeLo = nodes[record] as number;
        const nodeHi = nodes[record + 1] as number;
        const own = nodes[record + 3] === 1;
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
    const prevChar = depth > 0 ? (char[node] as number) : -1;
    const end = nodes[record + 6] as number;
    for (let c = nodes[record + 2] as number; c < end && going; c++) {
      const ch = char[c] as number;
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
      // A child out of reach is never visited: its record is not read.
      if (rowMin <= max) {
        visit(c, d);
      }
    }
  };
  if ((nodes[1] as number) > 0) {
    visit(0, 0);
  }
}
