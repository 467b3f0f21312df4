import { describe, expect, it } from 'vitest';
import { recogniseOnsets } from './onset.ts';

describe('recogniseOnsets', () => {
  it.each<[string, string[]]>([
    ['sore throat since yesterday', ['since yesterday']],
    ['cough for 3 days', ['for 3 days']],
    ['started two weeks ago', ['two weeks ago']],
    ['woke up like this last night', ['last night']],
    ['for the past few days', ['for the past few days']],
    ['for a couple of weeks', ['for a couple of weeks']],
    ['since Monday', ['since Monday']],
    ['on Tuesday and again this morning', ['on Tuesday', 'this morning']],
    ['rash for months', ['for months']],
    ['about an hour ago', ['about an hour ago']],
    ['since 6am', ['since 6am']],
    ['all day', ['all day']],
    ['for over an hour', ['for over an hour']],
    ['I fell over two days ago', ['two days ago']],
    ['Yesterday evening it began', ['Yesterday evening']],
    ['no time here', []],
    ['a daybed, a weekday', []],
    ['book for next week', []],
  ])('%s', (text, expected) => {
    expect(recogniseOnsets(text).map((o) => o.original)).toEqual(expected);
  });

  it.each([
    ['for 3 days', { relation: 'duration', amount: 3, unit: 'day' }],
    ['two weeks ago', { relation: 'ago', amount: 2, unit: 'week' }],
    ['since yesterday', { relation: 'since' }],
    ['last night', { relation: 'point' }],
    ['for a few hrs', { relation: 'duration', amount: 3, unit: 'hour' }],
    ['for 2 wks', { relation: 'duration', amount: 2, unit: 'week' }],
  ])('%s → %j', (text, detail) => {
    const [onset] = recogniseOnsets(text);
    expect(onset).toEqual({
      category: 'onset',
      start: 0,
      end: text.length,
      original: text,
      ...detail,
    });
  });

  it('keeps the longer of two overlapping expressions, with offsets into the text', () => {
    const text = 'Pain since 2 days ago.';
    expect(recogniseOnsets(text)).toEqual([
      {
        category: 'onset',
        start: 5,
        end: 21,
        original: 'since 2 days ago',
        relation: 'since',
        amount: 2,
        unit: 'day',
      },
    ]);
  });
});
