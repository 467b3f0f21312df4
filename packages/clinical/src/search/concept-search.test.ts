import { describe, expect, it } from 'vitest';
import type { ConceptClass } from '../kb/format.ts';
import { Concept } from '../kb/format.ts';
import {
  allowedEdits,
  boundedEditDistance,
  createConceptIndex,
  normaliseText,
} from './concept-search.ts';
import { NAMES_PER_CONCEPT } from './build.ts';
import { RangeCursor } from './cursors.ts';
import {
  createPrefixLists,
  CROWDED,
  postingCount,
  prefixRange,
  TOP_CROWDED,
} from './prefix-lists.ts';

const make = (id: string, canonicalName: string, cls: ConceptClass, aliases: string[] = []) =>
  Concept.parse({
    id,
    canonicalName,
    aliases,
    class: cls,
    provenance: [{ source: 'test', reference: id }],
  });

const index = createConceptIndex([
  make('T:abdominal-pain', 'abdominal pain', 'symptom', [
    'tummy ache',
    'stomach ache',
    'belly pain',
  ]),
  make('T:abdominal-cramps', 'abdominal cramps', 'symptom', ['stomach cramps']),
  make('T:diarrhea', 'diarrhea', 'symptom', ['diarrhoea', 'the runs', 'loose stools']),
  make('T:bloody-diarrhea', 'bloody diarrhea', 'sign'),
  make('T:diabetes', 'type 2 diabetes mellitus', 'condition', ['diabetes', 'sugar diabetes']),
  make('T:dizziness', 'dizziness', 'symptom', ['dizzy', 'lightheaded']),
  make('T:headache', 'headache', 'symptom', ['sore head']),
  make('T:migraine', 'migraine', 'condition', ['sick headache']),
  make('T:chest-pain', 'chest pain', 'symptom'),
  make('T:fever', 'fever', 'symptom', ['high temperature', 'pyrexia']),
  make('T:gastroenteritis', 'gastroenteritis', 'condition', ['stomach bug', 'stomach flu']),
  make('T:crohn', 'Crohn’s disease', 'condition'),
  make('T:abdomen', 'abdomen', 'anatomicalLocation', ['tummy', 'belly']),
]);

const top = (query: string, classes?: ConceptClass[]) =>
  index.search(query, { limit: 1, ...(classes ? { classes } : {}) })[0]?.conceptId;

describe('concept search', () => {
  it.each([
    // query, expected first hit, why
    ['abdominal pain', 'T:abdominal-pain', 'exact canonical name'],
    ['Abdominal  Pain!', 'T:abdominal-pain', 'case and punctuation do not matter'],
    ['tummy ache', 'T:abdominal-pain', 'lay alias'],
    ['stomach ache', 'T:abdominal-pain', 'lay alias'],
    ['the runs', 'T:diarrhea', 'lay alias'],
    ['diarrhoea', 'T:diarrhea', 'British spelling as alias'],
    ['diarhea', 'T:diarrhea', 'one letter missing'],
    ['diarrhae', 'T:diarrhea', 'two letters swapped'],
    ['diarr', 'T:diarrhea', 'prefix while typing'],
    ['abd pa', 'T:abdominal-pain', 'prefix of every word'],
    ['pain abdominal', 'T:abdominal-pain', 'words in another order'],
    ['abdominal pian', 'T:abdominal-pain', 'typo in the second word'],
    ['headahce', 'T:headache', 'transposition'],
    ['diabetes', 'T:diabetes', 'exact alias beats prefix of nothing'],
    ['diab', 'T:diabetes', 'prefix of an alias'],
    ['crohns disease', 'T:crohn', 'apostrophe normalised away'],
    ['stomach flu', 'T:gastroenteritis', 'lay alias of a condition'],
    ['fevr', 'T:fever', 'typo in a short word'],
  ])('%s → %s (%s)', (query, expected) => {
    expect(top(query)).toBe(expected);
  });

  it('ranks exact above prefix above token prefix above fuzzy', () => {
    const scores = (q: string, id: string) =>
      index.search(q).find((r) => r.conceptId === id)?.score ?? 0;
    const exact = scores('diarrhea', 'T:diarrhea');
    const prefix = scores('diarrh', 'T:diarrhea');
    const token = scores('diarrhea blo', 'T:bloody-diarrhea');
    const fuzzy = scores('diarhea', 'T:diarrhea');
    expect(exact).toBe(1);
    expect(prefix).toBeLessThan(exact);
    expect(token).toBeLessThan(prefix);
    expect(fuzzy).toBeLessThan(token);
    expect(fuzzy).toBeGreaterThan(0);
  });

  it('lists the concept named exactly before longer names that start the same', () => {
    expect(index.search('diarrhea').map((r) => r.conceptId)).toEqual([
      'T:diarrhea',
      'T:bloody-diarrhea',
    ]);
  });

  it('returns the spec’s result shape: conceptId, canonicalName, index of aliases, class, score', () => {
    expect(index.search('tummy ache')[0]).toEqual({
      conceptId: 'T:abdominal-pain',
      canonicalName: 'abdominal pain',
      index: ['tummy ache', 'stomach ache', 'belly pain'],
      class: 'symptom',
      score: 0.99,
      matched: 'tummy ache',
    });
  });

  it('filters by class', () => {
    expect(top('tummy')).toBe('T:abdomen');
    expect(top('tummy', ['symptom'])).toBe('T:abdominal-pain');
    expect(index.search('headache', { classes: ['condition'] }).map((r) => r.conceptId)).toEqual([
      'T:migraine',
    ]);
  });

  it('honours the limit and returns each concept once', () => {
    const all = index.search('ab');
    expect(new Set(all.map((r) => r.conceptId)).size).toBe(all.length);
    expect(index.search('ab', { limit: 2 })).toHaveLength(2);
    expect(index.search('ab', { limit: 0 })).toEqual([]);
  });

  it('finds nothing for nonsense or an empty query, and does not fuzz very short words', () => {
    expect(index.search('xylophone')).toEqual([]);
    expect(index.search('  ')).toEqual([]);
    expect(index.search('fex')).toEqual([]);
  });
});

describe('names sharing a long prefix', () => {
  it('builds and answers when hundreds of names share 20,000 characters', () => {
    // The prefix lists' walk once recursed as deep as the shared prefix: this overflowed the stack.
    const long = 'a'.repeat(20_000);
    const concepts = [
      make('T:fever', 'fever', 'symptom'),
      ...Array.from({ length: 300 }, (_, i) => make(`LONG:${i}`, `${long}${i}`, 'symptom')),
    ];
    const longIndex = createConceptIndex(concepts);
    const found = longIndex.search('aaaa', { limit: 300 }).map((r) => r.conceptId);
    expect(new Set(found)).toEqual(new Set(concepts.slice(1).map((c) => c.id)));
    expect(longIndex.search('fever', { limit: 1 })[0]?.conceptId).toBe('T:fever');
  });

  it('keeps one heavy list for a chain of single children, read under the range it covers', () => {
    const long = 'b'.repeat(5_000);
    const keys = Array.from({ length: 300 }, (_, i) => `${long}${i}`).sort();
    const offsets = Int32Array.from({ length: keys.length + 1 }, (_, k) => k);
    const ids = Int32Array.from(keys, (_, k) => keys.length - 1 - k);
    const lists = createPrefixLists(keys, offsets, ids);
    // The 300 keys share 5,000 characters, then branch by their digits: no list for the 4,999
    // prefixes above the branch, which no range is read under.
    expect(lists.heavy.size).toBe(1);
    for (const prefix of ['b', long.slice(0, 2_500), long]) {
      const [lo, hi] = prefixRange(keys, prefix);
      const cursor = new RangeCursor(lists, lo, hi);
      const got: number[] = [];
      for (let id = cursor.peek(); id >= 0; cursor.advance(), id = cursor.peek()) {
        got.push(id);
      }
      expect(got).toEqual(Array.from({ length: 300 }, (_, i) => i));
    }
  });
});

describe('a crowded prefix', () => {
  it(`keeps its first ${TOP_CROWDED} distinct ids ready, and gives every id once past them`, () => {
    // 200 keys under 'a', each with 120 ids of 0..11,999: every id under 'a' twice (24,000
    // postings, more than CROWDED), so the first ids must be counted distinct.
    const keys = Array.from({ length: 200 }, (_, k) => `a${String(k).padStart(3, '0')}`);
    const postings = keys.map((_, k) =>
      Array.from({ length: 120 }, (_, i) => ((k % 100) * 120 + i) % 12_000).sort((x, y) => x - y),
    );
    const offsets = new Int32Array(keys.length + 1);
    postings.forEach((l, k) => (offsets[k + 1] = (offsets[k] as number) + l.length));
    const lists = createPrefixLists(keys, offsets, Int32Array.from(postings.flat()));
    expect(postingCount(lists, 0, keys.length)).toBeGreaterThan(CROWDED);
    expect([...(lists.heavy.get('a') ?? [])]).toEqual(
      Array.from({ length: TOP_CROWDED }, (_, i) => i),
    );
    const [lo, hi] = prefixRange(keys, 'a');
    const cursor = new RangeCursor(lists, lo, hi);
    const got: number[] = [];
    for (let id = cursor.peek(); id >= 0; cursor.advance(), id = cursor.peek()) {
      got.push(id);
    }
    expect(got).toEqual(Array.from({ length: 12_000 }, (_, i) => i));
  });
});

describe('a concept with very many aliases', () => {
  const many = (count: number) =>
    make('T:many', 'many names', 'symptom', [
      ...Array.from({ length: count }, (_, i) => `alias number ${i}`),
    ]);

  it('builds with 65,535 aliases and answers its last one', () => {
    const manyIndex = createConceptIndex([many(NAMES_PER_CONCEPT - 1)]);
    expect(manyIndex.search('alias number 65534', { limit: 1 })[0]).toMatchObject({
      conceptId: 'T:many',
      matched: 'alias number 65534',
    });
  });

  it('refuses one more, saying which concept and what to do', () => {
    expect(() => createConceptIndex([many(NAMES_PER_CONCEPT)])).toThrow(
      /^concept T:many has 65536 aliases; concept search holds at most 65535 per concept: remove aliases from it/,
    );
  });
});

describe('text helpers', () => {
  it.each([
    ['Crohn’s Disease', 'crohn s disease'],
    ['  Ménière   disease ', 'meniere disease'],
    ['COVID-19', 'covid 19'],
  ])('normalises %s to %s', (text, expected) => {
    expect(normaliseText(text)).toBe(expected);
  });

  it.each([
    ['diarrhea', 'diarrhea', 0],
    ['diarhea', 'diarrhea', 1],
    ['diarrhae', 'diarrhea', 1],
    ['kitten', 'sitting', 3],
  ])('edit distance %s → %s is %i', (a, b, d) => {
    expect(boundedEditDistance(a, b, 5)).toBe(d);
  });

  it('stops counting past the bound', () => {
    expect(boundedEditDistance('kitten', 'sitting', 1)).toBe(2);
    expect(boundedEditDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('allows more edits for longer words', () => {
    expect([3, 4, 6, 7, 12].map(allowedEdits)).toEqual([0, 1, 1, 2, 2]);
  });
});
