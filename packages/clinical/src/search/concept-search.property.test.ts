// Issue 22: the best-first index against a brute-force scan of every name, on random vocabularies
// (fixed seeds), and its prefix lists against a plain union of postings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Concept, ConceptClass } from '../kb/format.ts';
import {
  allowedEdits,
  boundedEditDistance,
  createConceptIndex,
  createConceptIndexInBackground,
  normaliseText,
  type ConceptIndex,
} from './concept-search.ts';
import { CheckedCursor, RangeCursor } from './cursors.ts';
import { fuzzyRanges, keyTrieOf, trieRange } from './key-trie.ts';
import { createPrefixLists, HEAVY, prefixRange, TOP } from './prefix-lists.ts';

const concept = (i: number, names: string[], cls: ConceptClass): Concept =>
  ({
    id: `R:${i}`,
    canonicalName: names[0] as string,
    aliases: names.slice(1),
    class: cls,
    provenance: [{ source: 'test', reference: String(i) }],
  }) as unknown as Concept;

/**
 * Every concept scored by reading every name: the ranking rules of concept search written out
 * directly (exact name, name starting with the query, every query word exact or a prefix, then
 * typos), without any index.
 */
function bruteForce(
  concepts: readonly Concept[],
  raw: string,
  limit: number,
  classes?: ConceptClass[],
) {
  const query = normaliseText(raw);
  if (query === '') {
    return new Map<string, number>();
  }
  const q = query.split(' ');
  const hit = (j: number, t: string, fuzzy: boolean): [number, number] | undefined => {
    const w = q[j] as string;
    if (t === w) {
      return [0, 0];
    }
    if (t.startsWith(w)) {
      return [1, 0];
    }
    const max = allowedEdits(w.length);
    if (!fuzzy || max === 0) {
      return undefined;
    }
    let d = boundedEditDistance(w, t, max);
    if (j === q.length - 1 && t.length > w.length) {
      d = Math.min(
        d,
        boundedEditDistance(w, t.slice(0, w.length), max),
        boundedEditDistance(w, t.slice(0, w.length + 1), max),
      );
    }
    return d <= max ? [2, d] : undefined;
  };
  const score = (text: string, canonical: boolean, fuzzy: boolean): number => {
    if (text === query) {
      return 1 - (canonical ? 0 : 0.01);
    }
    const bonus = (canonical ? 0.02 : 0) + 0.1 * Math.min(1, query.length / text.length);
    if (text.startsWith(query)) {
      return 0.85 + bonus * 0.5;
    }
    const tokens = text.split(' ');
    const used = new Set<number>();
    let worst = 0;
    let edits = 0;
    let prefixes = 0;
    for (let j = 0; j < q.length; j++) {
      let best: { at: number; h: [number, number] } | undefined;
      tokens.forEach((t, at) => {
        const h = hit(j, t, fuzzy);
        if (
          h &&
          !used.has(at) &&
          (!best || h[0] < best.h[0] || (h[0] === best.h[0] && h[1] < best.h[1]))
        ) {
          best = { at, h };
        }
      });
      if (!best) {
        return 0;
      }
      used.add(best.at);
      worst = Math.max(worst, best.h[0]);
      prefixes += best.h[0] === 1 ? 1 : 0;
      edits += best.h[1];
    }
    return worst < 2
      ? 0.7 + bonus - (worst === 1 ? 0.02 : 0)
      : 0.5 + bonus - 0.08 * edits - 0.01 * prefixes;
  };
  const pass = (fuzzy: boolean) => {
    const best = new Map<string, number>();
    for (const c of concepts) {
      if (classes && !classes.includes(c.class)) {
        continue;
      }
      const seen = new Set<string>();
      [c.canonicalName, ...c.aliases].forEach((name, i) => {
        const text = normaliseText(name);
        if (text === '' || seen.has(text)) {
          return;
        }
        seen.add(text);
        const s = score(text, i === 0, fuzzy);
        if (s > 0 && s > (best.get(c.id) ?? 0)) {
          best.set(c.id, s);
        }
      });
    }
    return [...best].map(([id, s]) => ({ id, score: Math.round(Math.min(1, s) * 1000) / 1000 }));
  };
  const exactish = pass(false);
  const all = exactish.length >= limit ? exactish : pass(true);
  return new Map(all.map((r) => [r.id, r.score]));
}

/** The page a scan of every name gives: the same scores in order, each concept scored right. */
function expectScanPage(
  index: ConceptIndex,
  concepts: readonly Concept[],
  query: string,
  limit: number,
  classes?: ConceptClass[],
): void {
  const got = index.search(query, { limit, ...(classes ? { classes } : {}) });
  const expected = bruteForce(concepts, query, limit, classes);
  expect(got.map((r) => r.score)).toEqual(
    [...expected.values()].sort((a, b) => b - a).slice(0, limit),
  );
  for (const r of got) {
    expect(expected.get(r.conceptId)).toBe(r.score);
  }
}

const LETTERS = 'abcdeo';
const word = fc
  .array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 9 })
  .map((l) => l.join(''));
const name = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const vocabulary = fc.array(
  fc.record({
    names: fc.array(name, { minLength: 1, maxLength: 3 }),
    cls: fc.constantFrom<ConceptClass>('symptom', 'condition'),
  }),
  { minLength: 1, maxLength: 300 },
);
/** Queries as typed: a name, its start, a letter dropped, swapped or changed, or any words. */
const queryOf = (names: string[]) =>
  fc.oneof(
    fc.constantFrom(...names),
    fc.tuple(fc.constantFrom(...names), fc.nat()).map(([n, k]) => n.slice(0, 1 + (k % n.length))),
    fc.tuple(fc.constantFrom(...names), fc.nat(), fc.constantFrom(...LETTERS)).map(([n, k, c]) => {
      const at = k % n.length;
      const kind = k % 3;
      return kind === 0
        ? n.slice(0, at) + n.slice(at + 1)
        : kind === 1
          ? n.slice(0, at) + (n[at + 1] ?? '') + (n[at] ?? '') + n.slice(at + 2)
          : n.slice(0, at) + c + n.slice(at + 1);
    }),
    name,
  );

/** A vocabulary, queries typed over its names, a page size and maybe a class filter. */
const pageCases = vocabulary.chain((v) =>
  fc.tuple(
    fc.constant(v),
    fc.array(queryOf(v.flatMap((c) => c.names)), { minLength: 1, maxLength: 8 }),
    fc.integer({ min: 1, max: 12 }),
    fc.option(fc.constantFrom<ConceptClass[]>(['symptom'], ['condition'])),
  ),
);

describe('concept search against a brute-force scan (random vocabularies, fixed seed)', () => {
  it('returns the page a scan of every name returns: same scores, and every concept scored right', () => {
    fc.assert(
      fc.property(pageCases, ([v, queries, limit, classes]) => {
        const concepts = v.map((c, i) => concept(i, c.names, c.cls));
        const index = createConceptIndex(concepts, { candidateBudget: Infinity });
        for (const query of queries) {
          expectScanPage(index, concepts, query, limit, classes ?? undefined);
        }
      }),
      { seed: 22, numRuns: 150 },
    );
  });

  it('answers the same when its joins are small: the paths a large vocabulary takes', () => {
    // With at most a few postings joined, a typo tier of several query tokens checks candidates'
    // own tokens (the walk's bit sets, distinct tokens) and reads its chosen token in batches.
    fc.assert(
      fc.property(
        pageCases,
        fc.integer({ min: 0, max: 8 }),
        ([v, queries, limit, classes], joinPostings) => {
          const concepts = v.map((c, i) => concept(i, c.names, c.cls));
          const index = createConceptIndex(concepts, { candidateBudget: Infinity, joinPostings });
          for (const query of queries) {
            expectScanPage(index, concepts, query, limit, classes ?? undefined);
          }
        },
      ),
      { seed: 2211, numRuns: 150 },
    );
  });

  it('with the default candidate budget, answers a small vocabulary exactly as well', () => {
    fc.assert(
      fc.property(
        vocabulary.chain((v) => fc.tuple(fc.constant(v), queryOf(v.flatMap((c) => c.names)))),
        ([v, query]) => {
          const concepts = v.map((c, i) => concept(i, c.names, c.cls));
          const got = createConceptIndex(concepts).search(query, { limit: 5 });
          const expected = [...bruteForce(concepts, query, 5).values()].sort((a, b) => b - a);
          expect(got.map((r) => r.score)).toEqual(expected.slice(0, 5));
        },
      ),
      { seed: 2022, numRuns: 100 },
    );
  });

  it('stops at a full page of 300 tied exact names, and keeps the ranking’s order of the tie', () => {
    // 300 concepts named 'abcd' and one 'abce' (a typo of it, which could not enter the page).
    const concepts = [
      ...Array.from({ length: 300 }, (_, i) => concept(i, ['abcd'], 'symptom')),
      concept(300, ['abce'], 'symptom'),
    ];
    const page = createConceptIndex(concepts).search('abcd', { limit: 5 });
    expect(page.map((r) => r.score)).toEqual([1, 1, 1, 1, 1]);
    // The tie of 300 exact names is broken as the ranking breaks it (by name, then id order).
    expect(page.map((r) => r.conceptId)).toEqual(['R:0', 'R:1', 'R:2', 'R:3', 'R:4']);
    expect(createConceptIndex(concepts).search('abce', { limit: 1 })[0]?.conceptId).toBe('R:300');
  });

  it('a background build answers like the synchronous one, before and after it is ready', async () => {
    const concepts = Array.from({ length: 2000 }, (_, i) =>
      concept(i, [`name${i % 97} word${i}`, `alias${i % 13}`], 'symptom'),
    );
    const sync = createConceptIndex(concepts);
    const background = createConceptIndexInBackground(concepts, { sliceMs: 0 });
    expect(background.search('name1 wor')).toEqual(sync.search('name1 wor'));
    await background.ready;
    expect(background.search('alais3')).toEqual(sync.search('alais3'));
    const later = createConceptIndexInBackground(concepts, { sliceMs: 0 });
    await later.ready;
    expect(later.search('word12')).toEqual(sync.search('word12'));
  });
});

describe('prefix lists', () => {
  it('give every id under a prefix, ascending and once, heavy lists included', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc
            .array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 6 })
            .map((l) => l.join('')),
          {
            minLength: 1,
            maxLength: 200,
          },
        ),
        fc.array(fc.nat({ max: 5000 }), { minLength: 1, maxLength: 4000 }),
        fc.array(
          fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 4 }).map((l) => l.join('')),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        (rawKeys, ids, prefixes) => {
          const keys = [...rawKeys].sort();
          // Deal the ids out to the keys, each key's list ascending and distinct.
          const lists = keys.map(() => new Set<number>());
          ids.forEach((id, i) => lists[(id * 7 + i) % keys.length]?.add(id));
          const sorted = lists.map((l) => [...l].sort((a, b) => a - b));
          const offsets = new Int32Array(keys.length + 1);
          sorted.forEach((l, k) => (offsets[k + 1] = (offsets[k] as number) + l.length));
          const prefixLists = createPrefixLists(keys, offsets, Int32Array.from(sorted.flat()));
          for (const prefix of prefixes) {
            const [lo, hi] = prefixRange(keys, prefix);
            const expected = [
              ...new Set(keys.flatMap((k, i) => (k.startsWith(prefix) ? (sorted[i] ?? []) : []))),
            ].sort((a, b) => a - b);
            const cursor = new RangeCursor(prefixLists, lo, hi);
            const got: number[] = [];
            for (let id = cursor.peek(); id >= 0; cursor.advance(), id = cursor.peek()) {
              got.push(id);
            }
            expect(got).toEqual(expected);
          }
          for (const list of prefixLists.heavy.values()) {
            expect(list.length).toBeLessThanOrEqual(TOP);
          }
        },
      ),
      { seed: 7, numRuns: 200 },
    );
    expect(HEAVY).toBeGreaterThan(TOP);
  });
});

describe('the typo walk and the checked cursor', () => {
  const keySet = fc
    .uniqueArray(
      fc
        .array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 7 })
        .map((l) => l.join('')),
      { minLength: 1, maxLength: 300 },
    )
    .map((keys) => [...keys].sort());

  it('reports exactly the keys within reach, and when typing every key whose start is', () => {
    fc.assert(
      fc.property(
        keySet,
        fc
          .array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 8 })
          .map((l) => l.join('')),
        fc.integer({ min: 1, max: 2 }),
        fc.boolean(),
        (keys, q, max, typing) => {
          const reached = new Map<number, number>();
          fuzzyRanges(keyTrieOf(keys), q, max, typing, (lo, hi, edits) => {
            for (let k = lo; k < hi; k++) {
              reached.set(k, Math.min(edits, reached.get(k) ?? Infinity));
            }
            return true;
          });
          keys.forEach((key, k) => {
            let d = boundedEditDistance(q, key, max);
            if (typing && key.length > q.length) {
              d = Math.min(
                d,
                boundedEditDistance(q, key.slice(0, q.length), max),
                boundedEditDistance(q, key.slice(0, q.length + 1), max),
              );
            }
            expect([k, reached.has(k)]).toEqual([k, d <= max]);
          });
        },
      ),
      { seed: 31, numRuns: 300 },
    );
  });

  it('finds a prefix range by the trie as a binary search over the keys does', () => {
    fc.assert(
      fc.property(
        keySet,
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 8 }).map((l) => l.join('')),
        (keys, prefix) => {
          expect(trieRange(keyTrieOf(keys), prefix)).toEqual(
            prefixRange(keys, prefix)[0] === prefixRange(keys, prefix)[1]
              ? [0, 0]
              : prefixRange(keys, prefix),
          );
        },
      ),
      { seed: 37, numRuns: 300 },
    );
  });

  it('gives the union of several ranges ascending and once, checked a batch at a time', () => {
    fc.assert(
      fc.property(
        keySet,
        fc.array(fc.nat({ max: 3000 }), { minLength: 1, maxLength: 3000 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        (keys, ids, bounds, modulus) => {
          const lists = keys.map(() => new Set<number>());
          ids.forEach((id, i) => lists[(id * 7 + i) % keys.length]?.add(id));
          const sorted = lists.map((l) => [...l].sort((a, b) => a - b));
          const offsets = new Int32Array(keys.length + 1);
          sorted.forEach((l, k) => (offsets[k + 1] = (offsets[k] as number) + l.length));
          const prefixLists = createPrefixLists(keys, offsets, Int32Array.from(sorted.flat()));
          const ranges = bounds.map(([a, b]) => {
            const lo = a % (keys.length + 1);
            return [lo, lo + (b % (keys.length + 1 - lo))];
          });
          const admitted: number[] = [];
          const cursor = new CheckedCursor(prefixLists, ranges, {
            room: () => Infinity,
            wanted: () => true,
            admit: (batch) => {
              admitted.push(batch.length);
              return batch.filter((id) => id % modulus === 0);
            },
          });
          const got: number[] = [];
          for (let id = cursor.peek(); id >= 0; cursor.advance(), id = cursor.peek()) {
            got.push(id);
          }
          const expected = [...new Set(ranges.flatMap(([lo, hi]) => sorted.slice(lo, hi).flat()))]
            .filter((id) => id % modulus === 0)
            .sort((a, b) => a - b);
          expect(got).toEqual(expected);
        },
      ),
      { seed: 41, numRuns: 200 },
    );
  });
});
