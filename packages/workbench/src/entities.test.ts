import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { describe, expect, it } from 'vitest';
import {
  addEntity,
  clearEntities,
  isIntentCategory,
  removeEntitiesSharingExtract,
  restoreEntities,
} from './entities.ts';

const e = (start: number, end: number, extract: string, category: string): AnnotationEntity => ({
  start,
  end,
  extract,
  category,
});

describe('removing a highlighted entity removes every entity sharing that extract (spec 1 §4)', () => {
  const entities = [
    e(0, 4, 'pain', 'sx'),
    e(0, 4, 'pain', 'intent'),
    e(20, 24, 'pain', 'current_complaint'),
    e(5, 9, 'knee', 'sx'),
  ];
  it.each([
    ['the same extract at two places and with two categories', 'pain', [e(5, 9, 'knee', 'sx')]],
    ['an extract held by one entity', 'knee', entities.slice(0, 3)],
    ['an extract nobody holds', 'back', entities],
    ['an extract differing only in case', 'Pain', entities],
  ])('%s', (_name, extract, expected) => {
    expect(removeEntitiesSharingExtract(entities, { extract })).toEqual(expected);
  });

  it('clear removes all annotations', () => {
    expect(clearEntities()).toEqual([]);
  });
});

describe('adding an entity', () => {
  it.each([
    ['goes in message order', [e(5, 9, 'knee', 'sx')], e(0, 4, 'pain', 'sx'), 2, 'pain'],
    [
      'a second category on the same span is kept',
      [e(0, 4, 'pain', 'sx')],
      e(0, 4, 'pain', 'intent'),
      2,
      'pain',
    ],
    [
      'the same span and category twice is kept once',
      [e(0, 4, 'pain', 'sx')],
      e(0, 4, 'pain', 'sx'),
      1,
      'pain',
    ],
  ])('%s', (_name, before, added, count, firstExtract) => {
    const after = addEntity(before, added);
    expect(after).toHaveLength(count);
    expect(after[0]?.extract).toBe(firstExtract);
  });
});

describe('intent categories', () => {
  it.each([
    ['intent', [], true],
    ['book_appointment', ['book_appointment'], true],
    ['book_appointment', [], false],
    ['sx', ['book_appointment'], false],
  ])('%s with intent menu %j is an intent: %s', (category, names, expected) => {
    expect(isIntentCategory(category, names)).toBe(expected);
  });
});

describe('undo of a delete or Clear (issue 20)', () => {
  const a = { start: 0, end: 5, extract: 'Sharp', category: 'sx' };
  const b = { start: 10, end: 14, extract: 'back', category: 'location' };
  it('puts the removed entities back in order, without doubling one still there', () => {
    expect(restoreEntities([b], [a])).toEqual([a, b]);
    expect(restoreEntities([a], [a, b])).toEqual([a, b]);
    expect(restoreEntities([], [])).toEqual([]);
  });
});
