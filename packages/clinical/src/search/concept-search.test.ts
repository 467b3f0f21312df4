import { describe, expect, it } from 'vitest';
import type { ConceptClass } from '../kb/format.ts';
import { Concept } from '../kb/format.ts';
import {
  allowedEdits,
  boundedEditDistance,
  createConceptIndex,
  normaliseText,
} from './concept-search.ts';

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
