/** Candidate sources of a search, ordered by the best score each may still give (issue 22). */
import type { Cursor } from './cursors.ts';

/** One source of candidate entries, ascending by id, with the best score any of them can have. */
export interface Source {
  /** Upper bound of the score of the next entry (refreshed on each move). */
  bound: number;
  /** Entries ascending; undefined until first read (then `bound` is the best the source allows). */
  cursor?: Cursor;
  /** Makes the cursor, when the source is first read. */
  open?: () => Cursor;
  /** Score of an entry of `length` from this source, at best. */
  best: (length: number) => number;
  /** The typo-tolerant sources, made when first needed. */
  expand?: () => Source[];
}

export class SourceHeap {
  readonly items: Source[] = [];
  push(source: Source): void {
    const items = this.items;
    items.push(source);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as Source).bound >= source.bound) {
        break;
      }
      items[i] = items[parent] as Source;
      i = parent;
    }
    items[i] = source;
  }
  /** Removes the top. */
  pop(): void {
    const items = this.items;
    const last = items.pop() as Source;
    if (items.length > 0) {
      items[0] = last;
      this.settleTop();
    }
  }
  /** Restores the order after the top's bound went down. */
  settleTop(): void {
    const items = this.items;
    const n = items.length;
    const source = items[0] as Source;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) {
        break;
      }
      const r = l + 1;
      const c = r < n && (items[r] as Source).bound > (items[l] as Source).bound ? r : l;
      if ((items[c] as Source).bound <= source.bound) {
        break;
      }
      items[i] = items[c] as Source;
      i = c;
    }
    items[i] = source;
  }
}
