import { describe, expect, it } from 'vitest';
import { expandPattern, MAX_PHRASES_PER_RULE, parsePhraseRules } from './phrase-rules.ts';

describe('lay phrase rules', () => {
  it('expands choices and optional words', () => {
    expect(expandPattern("can't keep [any] (food | water) down").sort()).toEqual([
      "can't keep any food down",
      "can't keep any water down",
      "can't keep food down",
      "can't keep water down",
    ]);
  });

  it('nests choices', () => {
    expect(expandPattern('(going to | about to) (pass out | [black] faint)').sort()).toEqual([
      'about to black faint',
      'about to faint',
      'about to pass out',
      'going to black faint',
      'going to faint',
      'going to pass out',
    ]);
  });

  it('reads a file of rules with comments, adding LD: to local ids', () => {
    const rules = parsePhraseRules(
      '# fainting\nfeeling-faint: going to (pass out | faint)  # lay words\n\nSYMP:1: dizzy spells\n',
    );
    expect(rules).toEqual([
      {
        conceptId: 'LD:feeling-faint',
        pattern: 'going to (pass out | faint)',
        line: 2,
        phrases: ['going to pass out', 'going to faint'],
      },
      { conceptId: 'SYMP:1', pattern: 'dizzy spells', line: 4, phrases: ['dizzy spells'] },
    ]);
  });

  it('names every bad line at once', () => {
    expect(() =>
      parsePhraseRules('no colon here\nvomiting: (being sick\nnausea: ( | queasy)\nfever: hot ]'),
    ).toThrow(
      /line 1: write 'concept-id: pattern'[\s\S]*line 2: '\(' is not closed[\s\S]*line 3: an empty choice[\s\S]*line 4: '\]' without/,
    );
  });

  it('refuses a rule that expands beyond the limit', () => {
    const choice = `(${Array.from({ length: 15 }, (_, i) => `w${i}`).join(' | ')})`;
    expect(() => expandPattern(`${choice} ${choice}`)).toThrow(
      new RegExp(`more than ${MAX_PHRASES_PER_RULE} phrases`),
    );
  });
});
