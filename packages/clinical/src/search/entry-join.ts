/**
 * Entries holding a match of each of several query tokens (issue 22), by a hash join: the entries
 * of every token but one are marked in a bit set over the entries, one pass over their postings,
 * and the postings of the remaining token are tested against the bits. A test reads one bit of a
 * set of entries / 8 bytes, where checking an entry's own tokens reads two arrays at a place of
 * its own: in a large index, a cache miss each, and the candidates of a typo grow with the
 * vocabulary.
 */
import type { PrefixLists } from './prefix-lists.ts';

/** Bit sets over the entries of an index, reused from search to search (each clears its bits). */
interface Pool {
  sets: Int32Array[];
  /** Sets in use by the joins of the running search. */
  used: number;
}
const scratch = new WeakMap<PrefixLists, Pool>();

export class EntryJoin {
  private readonly sets: Int32Array[] = [];
  private readonly pool: Pool;
  /** The key ranges marked, per set: cleared by the same postings. */
  private readonly marked: (readonly (readonly number[])[])[] = [];

  constructor(
    private readonly lists: PrefixLists,
    private readonly entries: number,
  ) {
    let pool = scratch.get(lists);
    if (!pool) {
      pool = { sets: [], used: 0 };
      scratch.set(lists, pool);
    }
    this.pool = pool;
  }

  get size(): number {
    return this.sets.length;
  }

  /** Adds a token: every entry holding a posting under its key ranges [lo, hi). */
  add(ranges: readonly (readonly number[])[]): void {
    const set = (this.pool.sets[this.pool.used++] ??= new Int32Array((this.entries >>> 5) + 1));
    this.sets.push(set);
    this.marked.push(ranges);
    this.mark(set, ranges, true);
  }

  /** Whether entry e holds a posting of every token added. */
  holdsAll(e: number): boolean {
    const word = e >>> 5;
    const bit = 1 << (e & 31);
    for (const set of this.sets) {
      if (((set[word] as number) & bit) === 0) {
        return false;
      }
    }
    return true;
  }

  /** Clears the bits set; a search calls it before it returns. */
  release(): void {
    this.sets.forEach((set, i) => this.mark(set, this.marked[i] ?? [], false));
    this.pool.used -= this.sets.length;
    this.sets.length = 0;
    this.marked.length = 0;
  }

  private mark(set: Int32Array, ranges: readonly (readonly number[])[], on: boolean): void {
    const { offsets, ids } = this.lists;
    for (const [lo, hi] of ranges) {
      const to = offsets[hi as number] as number;
      for (let p = offsets[lo as number] as number; p < to; p++) {
        const e = ids[p] as number;
        const word = e >>> 5;
        set[word] = on ? (set[word] as number) | (1 << (e & 31)) : 0;
      }
    }
  }
}
