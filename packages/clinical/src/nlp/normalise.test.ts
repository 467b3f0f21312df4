import { describe, expect, it } from 'vitest';
import { americanSpelling, expandTexting, matchKey } from './normalise.ts';

describe('matchKey: the ways one word is written meet', () => {
  it.each([
    // tense and '-y' adjectives
    ['vomiting', 'vomited'],
    ['vomitting', 'vomit'],
    ['passing', 'passed'],
    ['itchy', 'itch'],
    ['aching', 'ache'],
    ['sneezing', 'sneeze'],
    ['worried', 'worry'],
    // British and American spelling
    ['diarrhoea', 'diarrhea'],
    ['haematuria', 'hematuria'],
    ['oedema', 'edema'],
    ['colour', 'color'],
    ['fibre', 'fiber'],
    ['paralysed', 'paralyzed'],
    // lay words for the same thing
    ['wee', 'urine'],
    ['weeing', 'peeing'],
    ['belly', 'tummy'],
    ['stomach', 'abdominal'],
    ['poo', 'stools'],
    ['mom', 'mum'],
  ])('%s meets %s', (a, b) => {
    expect(matchKey(a)).toBe(matchKey(b));
  });

  it.each([
    ['spotting', 'spots'],
    ['scared', 'scar'],
    ['fitting', 'fit'],
    ['wound', 'would'],
  ])('keeps %s apart from %s', (a, b) => {
    expect(matchKey(a)).not.toBe(matchKey(b));
  });

  it('spells British words the American way only where the word is long enough', () => {
    expect(americanSpelling('anaemia')).toBe('anemia');
    expect(americanSpelling('toe')).toBe('toe');
    expect(americanSpelling('does')).toBe('does');
  });

  it('reads texting shorthand as the words meant', () => {
    expect(expandTexting(['rly', 'bad', 'temp', 'n', 'gonna', 'faint'])).toEqual([
      'really',
      'bad',
      'temperature',
      'and',
      'going',
      'to',
      'faint',
    ]);
  });
});
