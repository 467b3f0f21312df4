/**
 * Answering a query (issue 22): candidates read best first from sorted names, the vocabulary's
 * prefix ranges and, when those leave room, the tokens within the allowed edits, until no unread
 * candidate can enter the page.
 */
import type { Concept } from '../kb/format.ts';
import type { Built } from './build.ts';
import type { ConceptSearchOptions, ConceptSearchResult } from './concept-search.ts';
import {
  CheckedCursor,
  ListCursor,
  RangeCursor,
  type BatchFilter,
  type Cursor,
  type CursorFilter,
} from './cursors.ts';
import { EntryJoin } from './entry-join.ts';
import { postingCount, prefixRange, sortDistinct, type PrefixLists } from './prefix-lists.ts';
import { QueryMatches, type TokenMatches } from './match-sets.ts';
import { SourceHeap, type Source } from './source-heap.ts';
import {
  bonusOf,
  closenessOf,
  entryScorer,
  fuzzyScore,
  prefixScore,
  rounded,
  tokensScore,
} from './score.ts';
import { allowedEdits, normaliseText } from './text.ts';

/** Candidates read at most, once the page is full, whose best score only ties its last one. */
const TIE_READS = 256;

/** Candidates of the typo tier few enough to score without walking the trie for other tokens. */
const FEW_SCORED = 128;

/** What a walk of the trie for a query token costs, in order: none, one edit, two (then by length). */
const walkCost = (q: string): number => allowedEdits(q.length) * 100 + q.length;

/** Candidates checked and passed over (they cannot score), at most, per one of the read budget. */
const CHECKS_PER_READ = 16;

interface Top {
  concept: number;
  score: number;
}

export function search(
  index: Built,
  { budget, joinPostings }: { budget: number; joinPostings: number },
  rawQuery: string,
  options: ConceptSearchOptions,
): ConceptSearchResult[] {
  const query = normaliseText(rawQuery);
  const limit = options.limit ?? 20;
  if (query === '' || limit <= 0) {
    return [];
  }
  const { concepts, texts, vocabulary } = index;
  const classes = options.classes ? new Set(options.classes) : undefined;
  const qTokens = query.split(' ');
  const ql = query.length;
  const closeness = (length: number) => closenessOf(ql, length);

  // What each query token can meet (a trie walk once per query token, when first needed).
  const matches = new QueryMatches(index, qTokens);
  const prefixes = matches.prefixes;

  const scoreEntry = entryScorer(index, query);

  // The page so far, and the candidates read and checked.
  const bestOf = new Map<number, { score: number; entry: number }>();
  const top: Top[] = [];
  const seen = new Set<number>();
  let checks = 0;
  const join = new EntryJoin(vocabulary, index.concept.length);
  const checkBudget = CHECKS_PER_READ * budget;
  const ofClasses = (e: number): boolean =>
    !classes || classes.has((concepts[index.concept[e] as number] as Concept).class);
  /** Whether entry e can score: of the classes asked for, with a name token for each query token. */
  const admitted = (e: number): boolean => ofClasses(e) && matches.admits(e);
  // A source ends where its bound (which falls as ids rise) can no longer enter a full page.
  const wantedBy = (best: (length: number) => number) => (e: number) =>
    top.length < limit ||
    rounded(best(index.length[e] as number)) >= rounded((top[limit - 1] as Top).score);
  // Candidates that cannot score are passed over inside the sources, a window at a time, up to the
  // budget of checks (past it every id is given, and the search ends at the next read).
  const filterOf = (
    best: (length: number) => number,
    check: (ids: Int32Array, from: number, to: number, out: Uint8Array) => void,
    only?: (id: number) => boolean,
  ): CursorFilter => ({
    wanted: wantedBy(best),
    ...(only ? { only } : {}),
    check: (ids, from, to, out) => {
      checks += to - from;
      if (checks > checkBudget) {
        out.fill(1, 0, to - from);
      } else {
        check(ids, from, to, out);
      }
    },
  });
  const classesOf = (ids: Int32Array, from: number, to: number, out: Uint8Array) => {
    for (let i = from; i < to; i++) {
      out[i - from] = ofClasses(ids[i] as number) ? 1 : 0;
    }
  };
  const admittedOf = (
    ids: Int32Array,
    from: number,
    to: number,
    out: Uint8Array,
    walk: boolean,
  ) => {
    matches.admitsAll(ids, from, to, out, walk);
    if (classes) {
      for (let i = from; i < to; i++) {
        if (!ofClasses(ids[i] as number)) {
          out[i - from] = 0;
        }
      }
    }
  };
  // An entry of the tokens tier holds an exact or prefix match of every query token: the other
  // tokens' entries are marked when the tier is first read (a token with too many is left to the
  // check of the candidate's tokens). One that scores only with a typo is read in the typo tier.
  let prefixJoin: EntryJoin | undefined;
  const prefixJoined = (): EntryJoin => {
    if (!prefixJoin) {
      prefixJoin = new EntryJoin(vocabulary, index.concept.length);
      for (let j = 0; j < qTokens.length; j++) {
        const [lo, hi] = prefixes[j] as [number, number];
        if (j !== rarestToken && postingCount(vocabulary, lo, hi) <= joinPostings) {
          prefixJoin.add([[lo, hi]]);
        }
      }
    }
    return prefixJoin;
  };
  const inPrefixJoin = (ids: Int32Array, from: number, to: number, out: Uint8Array) => {
    prefixJoined();
    // The entries the join lets through, then their own tokens (all of them at once).
    const passed: number[] = [];
    for (let i = from; i < to; i++) {
      out[i - from] = 0;
      if ((prefixJoin as EntryJoin).holdsAll(ids[i] as number)) {
        passed.push(i);
      }
    }
    const entries = Int32Array.from(passed, (i) => ids[i] as number);
    const verdicts = new Uint8Array(passed.length);
    admittedOf(entries, 0, entries.length, verdicts, false);
    passed.forEach((i, k) => (out[i - from] = verdicts[k] as number));
  };

  const heap = new SourceHeap();
  const range = (
    lists: PrefixLists,
    [lo, hi]: [number, number],
    best: (length: number) => number,
    check: (ids: Int32Array, from: number, to: number, out: Uint8Array) => void,
    only?: (id: number) => boolean,
  ): void => {
    if (lo < hi) {
      heap.push({
        bound: best(1),
        best,
        open: () => new RangeCursor(lists, lo, hi, filterOf(best, check, only)),
      });
    }
  };
  const rangeCount = (j: number) => {
    const [lo, hi] = prefixes[j] as [number, number];
    return postingCount(vocabulary, lo, hi);
  };
  /** The query token whose exact-or-prefix matches are fewest, among `among`. */
  const rarest = (among: number[]): number =>
    among.reduce((a, b) => (rangeCount(b) < rangeCount(a) ? b : a));

  // Exact and prefix-of-the-name matches: names that start with the query.
  // (every one holds each query token: no check but the classes).
  range(
    texts,
    prefixRange(texts.keys, query),
    (length) => (length <= ql ? 1 : prefixScore(bonusOf(true, closeness(length)))),
    classesOf,
  );
  // All tokens exact or prefix: entries holding the rarest query token are the only candidates.
  const all = qTokens.map((_, j) => j);
  const rarestToken = rarest(all);
  // A query token that is no word of the vocabulary meets a name only as a prefix (or a typo):
  // every name of the tier then has the prefix penalty.
  const someOnlyPrefix = qTokens.some((q, j) => {
    const [lo, hi] = prefixes[j] as [number, number];
    return lo === hi || vocabulary.keys[lo] !== q;
  });
  range(
    vocabulary,
    prefixes[rarestToken] as [number, number],
    (length) => tokensScore(bonusOf(true, closeness(length)), someOnlyPrefix),
    qTokens.length > 1 ? inPrefixJoin : classesOf,
    qTokens.length > 1 ? (e) => prefixJoined().holdsAll(e) : undefined,
  );
  // Typos: entries holding a match (exact, prefix or within the allowed edits) of one query
  // token, searched only when the better tiers leave room in the page.
  // A name scored in this tier has at least one edit (with none it is in a tier above, read from
  // the sources above), whichever range of the typo tier it was read from.
  const fuzzyBest = (edits: number) => (length: number) =>
    fuzzyScore(bonusOf(true, closeness(length)), Math.max(1, edits), 0);
  if (qTokens.some((t) => allowedEdits(t.length) > 0)) {
    heap.push({
      bound: fuzzyBest(0)(1),
      best: fuzzyBest(0),
      expand: () => {
        if (qTokens.length === 1) {
          // Every posting of the token's ranges is a candidate that scores: read them as they
          // are, a range at a time (heavy ranges from their first ids kept ready).
          return matches
            .of(0)
            .ranges.filter(([lo, hi]) => lo < hi)
            .map(([lo, hi, edits]) => {
              const best = fuzzyBest(edits);
              return {
                bound: best(1),
                best,
                open: () => new RangeCursor(vocabulary, lo, hi, filterOf(best, classesOf)),
              };
            });
        }
        // Every entry of the tier holds a match of each query token. The tokens are walked the
        // cheapest walk first; the one with the fewest postings so far is read, and the entries
        // of the others are marked (a join), so a candidate is checked further only when it holds
        // a posting of each. Once the read token's postings that pass the joins are few, the
        // tokens left are not walked: scoring those few costs less than a walk of the trie.
        const order = [...all].sort(
          (a, b) => walkCost(qTokens[a] as string) - walkCost(qTokens[b] as string),
        );
        /** Postings of `m` (an entry counted once per range holding it) that pass the join. */
        const holding = (m: TokenMatches) => {
          let count = 0;
          for (const [lo, hi] of m.ranges) {
            const to = vocabulary.offsets[hi] as number;
            for (let p = vocabulary.offsets[lo] as number; p < to; p++) {
              count += join.holdsAll(vocabulary.ids[p] as number) ? 1 : 0;
            }
          }
          return count;
        };
        const walked: number[] = [];
        let chosen: TokenMatches | undefined;
        let candidates = Infinity;
        for (const j of order) {
          if (candidates <= FEW_SCORED) {
            break;
          }
          const m = matches.of(j);
          walked.push(j);
          if (!chosen || m.postings < chosen.postings) {
            chosen = m;
            join.release(); // the join is of the tokens not read
            for (const k of walked) {
              const other = matches.of(k);
              if (other !== chosen && other.postings <= joinPostings) {
                join.add(other.ranges);
              }
            }
          } else if (m.postings <= joinPostings) {
            join.add(m.ranges);
          }
          // (Counted only when it can stop the walks: a join to count through, a token left.)
          candidates =
            join.size > 0 && walked.length < order.length && chosen.postings <= joinPostings
              ? holding(chosen)
              : chosen.postings;
        }
        const mine = chosen as TokenMatches;
        const ranges = mine.ranges.filter(([lo, hi]) => lo < hi);
        const unwalked = order.length - walked.length;
        const few = candidates <= FEW_SCORED;
        // With a token left unwalked the candidate's own tokens are not checked (that would walk
        // it): scoring decides.
        const keep =
          unwalked > 0
            ? (e: number) => join.holdsAll(e) && !seen.has(e) && ofClasses(e)
            : (e: number) => join.holdsAll(e) && !seen.has(e) && admitted(e);
        const groups: number[][][] = [];
        for (const range of ranges) {
          (groups[range[2]] ??= []).push(range);
        }
        return [...groups.entries()].flatMap(([edits, group]): Source[] => {
          if (!group) {
            return [];
          }
          const best = fuzzyBest(edits);
          if ((few || join.size === qTokens.length - 1) && mine.postings <= joinPostings) {
            // Every other token joined, or few candidates: all at once, a pass over the
            // postings as they lie.
            const kept: number[] = [];
            for (const [lo, hi] of group) {
              const to = vocabulary.offsets[hi as number] as number;
              for (let p = vocabulary.offsets[lo as number] as number; p < to; p++) {
                const e = vocabulary.ids[p] as number;
                if (keep(e)) {
                  kept.push(e);
                }
              }
            }
            const ready = sortDistinct(Int32Array.from(kept), kept.length);
            return [{ bound: best(1), best, open: () => new ListCursor(ready) }];
          }
          // A batch at a time, smallest ids first, within the budget of checks.
          const filter: BatchFilter = {
            wanted: wantedBy(best),
            room: () => checkBudget - checks,
            admit: (ids) => {
              checks += ids.length;
              return ids.filter(keep);
            },
          };
          return [
            { bound: best(1), best, open: () => new CheckedCursor(vocabulary, group, filter) },
          ];
        });
      },
    });
  }

  // Candidates best first, until no unseen entry can enter the page.
  try {
    let tieReads = 0;
    let reads = 0;
    while (heap.items.length > 0) {
      const source = heap.items[0] as Source;
      if (top.length >= limit) {
        const bound = rounded(source.bound);
        const kth = rounded((top[limit - 1] as Top).score);
        // Nothing unread can score higher; an equal score may still win on the name, read on a
        // little (candidates come in the order of that tie-break, so the first ones read win).
        if (bound < kth || (bound === kth && ++tieReads > TIE_READS)) {
          break;
        }
      }
      if (source.expand) {
        heap.pop();
        for (const more of source.expand()) {
          heap.push(more);
        }
        continue;
      }
      if (!source.cursor) {
        source.cursor = (source.open as () => Cursor)();
        const head = source.cursor.peek();
        if (head < 0) {
          heap.pop();
        } else {
          source.bound = source.best(index.length[head] as number);
          heap.settleTop();
        }
        continue;
      }
      const e = source.cursor.peek();
      if ((++reads > budget && (top.length > 0 || reads > 8 * budget)) || checks > checkBudget) {
        break;
      }
      source.cursor.advance();
      const next = source.cursor.peek();
      if (next < 0) {
        heap.pop();
      } else {
        source.bound = source.best(index.length[next] as number);
        heap.settleTop();
      }
      if (seen.has(e)) {
        continue;
      }
      seen.add(e);
      const c = index.concept[e] as number;
      const concept = concepts[c] as Concept;
      if (classes && !classes.has(concept.class)) {
        continue;
      }
      const score = scoreEntry(e);
      const current = bestOf.get(c);
      if (score <= 0 || (current && score <= current.score)) {
        continue;
      }
      bestOf.set(c, { score, entry: e });
      // Keep `top` the page's best concepts so far, best first.
      const at = top.findIndex((t) => t.concept === c);
      if (at >= 0) {
        (top[at] as Top).score = score;
      } else if (top.length < limit || score > (top[top.length - 1] as Top).score) {
        top.push({ concept: c, score });
      } else {
        continue;
      }
      top.sort((a, b) => b.score - a.score);
      if (top.length > limit) {
        top.pop();
      }
    }

    return [...bestOf]
      .map(([c, { score, entry }]): ConceptSearchResult => {
        const concept = concepts[c] as Concept;
        const at = index.nameAt[entry] as number;
        return {
          conceptId: concept.id,
          canonicalName: concept.canonicalName,
          index: [...concept.aliases],
          class: concept.class,
          score: rounded(score),
          matched: at === 0 ? concept.canonicalName : (concept.aliases[at - 1] as string),
        };
      })
      .sort(
        (a, b) =>
          b.score - a.score ||
          a.canonicalName.length - b.canonicalName.length ||
          a.canonicalName.localeCompare(b.canonicalName),
      )
      .slice(0, limit);
  } finally {
    // The bit sets are shared by the next search.
    matches.release();
    join.release();
    prefixJoin?.release();
  }
}
