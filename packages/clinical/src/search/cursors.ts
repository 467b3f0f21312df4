/**
 * Cursors over candidate entry ids, ascending (issue 22): a prefix range of sorted keys (its heavy
 * list first), the typo tier's ranges checked a batch at a time, and a list made ready. Ids come
 * in the order of the entries' length, so a search's bound falls as a cursor moves.
 */
import {
  collect,
  commonPrefix,
  HEAVY,
  idsAfter,
  postingCount,
  topOf,
  type PrefixLists,
} from './prefix-lists.ts';

/** Ascending entry ids, one at a time. */
export interface Cursor {
  /** The next id, or -1 when there is none. */
  peek(): number;
  advance(): void;
}

/** A cursor over a list made ready (ascending, distinct). */
export class ListCursor implements Cursor {
  private pos = 0;
  constructor(private readonly ids: Int32Array) {}
  peek(): number {
    return this.pos < this.ids.length ? (this.ids[this.pos] as number) : -1;
  }
  advance(): void {
    this.pos++;
  }
}

/** Which ids a cursor gives. */
export interface CursorFilter {
  /** Verdicts for ids[from .. to) into out[0 ..): 0 passes over the id. */
  check(ids: Int32Array, from: number, to: number, out: Uint8Array): void;
  /** False: no id from this one on is wanted, and the cursor ends (ids come ascending). */
  wanted(id: number): boolean;
  /** A cheap necessary condition of `check`: ids read past the heavy list that fail it are dropped. */
  only?: (id: number) => boolean;
}

/** Ids a `RangeCursor` takes at least when it reads past its heavy list. */
const REFILL = 1024;

/** Ids a `RangeCursor` checks at once, at most. */
const WINDOW = 32;

/**
 * Ascending distinct ids under a prefix range: the heavy list first, then (rarely, when a search
 * reads past it) the whole range. With a filter, the ids it refuses are passed over (the next id
 * given is the next one kept, so a search's bound follows the candidates that can score) and the
 * cursor ends where the filter wants no more, before it reads the whole range.
 */
export class RangeCursor implements Cursor {
  private ids: Int32Array;
  private pos = 0;
  /** Verdicts of ids[checked .. checked + checkedCount). */
  private verdicts = new Uint8Array(WINDOW);
  private checked = 0;
  private checkedCount = 0;
  private complete: boolean;

  constructor(
    private readonly lists: PrefixLists,
    private readonly lo: number,
    private readonly hi: number,
    private readonly filter?: CursorFilter,
  ) {
    const count = postingCount(lists, lo, hi);
    const heavy =
      count > HEAVY && hi > lo
        ? lists.heavy.get(commonPrefix(lists.keys[lo] as string, lists.keys[hi - 1] as string))
        : undefined;
    if (heavy) {
      this.ids = heavy;
      this.complete = heavy.length < topOf(count);
    } else {
      this.ids = collect(lists, lo, hi);
      this.complete = true;
    }
  }

  /** The next (kept) id, or -1 when there is none. */
  peek(): number {
    const filter = this.filter;
    for (;;) {
      const id = this.head();
      if (id < 0 || !filter) {
        return id;
      }
      if (!filter.wanted(id)) {
        this.end();
        return -1;
      }
      const at = this.pos - this.checked;
      if (at < 0 || at >= this.checkedCount) {
        this.check(filter);
      }
      if (this.verdicts[this.pos - this.checked] === 1) {
        return id;
      }
      this.pos++;
    }
  }

  /** Checks the ids from `pos` on: up to `WINDOW` of them, as far as they are wanted. */
  private check(filter: CursorFilter): void {
    let count = Math.min(WINDOW, this.ids.length - this.pos);
    while (count > 1 && !filter.wanted(this.ids[this.pos + count - 1] as number)) {
      count >>= 1;
    }
    filter.check(this.ids, this.pos, this.pos + count, this.verdicts);
    this.checked = this.pos;
    this.checkedCount = count;
  }

  advance(): void {
    this.pos++;
  }

  private end(): void {
    this.pos = this.ids.length;
    this.complete = true;
  }

  private head(): number {
    if (this.pos < this.ids.length) {
      return this.ids[this.pos] as number;
    }
    if (this.complete) {
      return -1;
    }
    const last = this.ids[this.ids.length - 1] as number;
    if (this.filter && !this.filter.wanted(last)) {
      this.end(); // nothing after `last` is wanted either: the range is not read
      return -1;
    }
    // The next ids past `last`, four times as many as the list before and at least `REFILL`
    // (each refill is a pass over the range's postings).
    const batch = idsAfter(
      this.lists,
      [[this.lo, this.hi]],
      last,
      Math.max(REFILL, 4 * this.ids.length),
      this.filter?.only,
    );
    this.ids = batch.ids;
    this.complete = batch.complete;
    this.pos = 0;
    this.checkedCount = 0;
    return this.head();
  }
}

/** Checks a batch of candidates at once. */
export interface BatchFilter {
  /** Candidates that may still be checked (the batch is cut to it; none left ends the cursor). */
  room(): number;
  /** The ids kept, ascending. */
  admit(ids: Int32Array): Int32Array;
  /** False: no id from this one on is wanted, and the cursor ends (ids come ascending). */
  wanted(id: number): boolean;
}

/** The first batch of a `CheckedCursor`; each next one is four times the last. */
const FIRST_BATCH = 256;

/**
 * Ascending distinct ids under several key ranges, checked a batch at a time: each batch is the
 * smallest ids past the last one (a pass over the postings and a quickselect), and the filter
 * keeps those that can score. Checking many at once lets the processor fetch their entries'
 * tokens together (in a large index each is a cache miss); the cursor ends where the filter
 * wants no more, or when its budget refuses a batch.
 */
export class CheckedCursor implements Cursor {
  private ids: Int32Array = new Int32Array(0);
  private pos = 0;
  private last = -1;
  private size = FIRST_BATCH;
  private complete = false;

  constructor(
    private readonly lists: PrefixLists,
    private readonly ranges: readonly (readonly number[])[],
    private readonly filter: BatchFilter,
  ) {}

  peek(): number {
    for (;;) {
      if (this.pos < this.ids.length) {
        const id = this.ids[this.pos] as number;
        if (this.filter.wanted(id)) {
          return id;
        }
        this.complete = true;
        this.ids = new Int32Array(0);
        return -1;
      }
      if (this.complete || (this.last >= 0 && !this.filter.wanted(this.last))) {
        return -1;
      }
      const room = this.filter.room();
      if (room <= 0) {
        return -1;
      }
      const batch = idsAfter(this.lists, this.ranges, this.last, Math.min(this.size, room));
      this.size *= 4;
      this.complete = batch.complete;
      if (batch.ids.length === 0) {
        return -1;
      }
      this.last = batch.ids[batch.ids.length - 1] as number;
      this.ids = this.filter.admit(batch.ids);
      this.pos = 0;
    }
  }

  advance(): void {
    this.pos++;
  }
}
