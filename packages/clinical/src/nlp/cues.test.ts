import { describe, expect, it } from 'vitest';
import { HAVE_SOURCES, readSource } from '../testing/sources.ts';
import { importContextRules, importNegexTriggers, mergeCues } from './cue-import.ts';
import type { Cue, CueCategory, CueDirection } from './cues.ts';
import { CUES } from './cues.ts';

/** How an open trigger list labels a phrase, in the project's terms. */
interface OpenLabel {
  category: CueCategory;
  direction: CueDirection;
}

function labels(cues: readonly Cue[]): Map<string, OpenLabel[]> {
  const map = new Map<string, OpenLabel[]>();
  for (const { phrase, category, direction } of cues) {
    map.set(phrase, [...(map.get(phrase) ?? []), { category, direction }]);
  }
  return map;
}

const negexLabels = () => labels(importNegexTriggers(readSource('negex.triggers.txt')));
const contextLabels = () =>
  labels(importContextRules(JSON.parse(readSource('medspacy.context_rules.json'))));

const ours = (phrase: string) => CUES.filter((c) => c.phrase === phrase);

describe('the project cue list', () => {
  it('is lower case, apostrophe-free and has no phrase twice in one category and direction', () => {
    const keys = CUES.map((c) => `${c.category}/${c.direction}/${c.phrase}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const cue of CUES) {
      expect(cue.phrase).toMatch(/^[a-z]+( [a-z]+)*$/u);
    }
  });

  it.each<[string, CueCategory, CueDirection]>([
    ['no', 'negation', 'forward'],
    ['denies', 'negation', 'forward'],
    ['dont have', 'negation', 'forward'],
    ['went away', 'negation', 'backward'],
    ['not sure if', 'possibility', 'forward'],
    ['history of', 'historical', 'forward'],
    ['my mum', 'family', 'forward'],
    ['runs in the family', 'family', 'backward'],
    ['if', 'hypothetical', 'forward'],
    ['but', 'terminate', 'terminate'],
    ['not only', 'pseudo', 'forward'],
  ])('has %s as %s %s', (phrase, category, direction) => {
    expect(ours(phrase)).toContainEqual({ phrase, category, direction });
  });
});

describe.runIf(HAVE_SOURCES)('agreement with the open NegEx and ConText trigger lists', () => {
  // Common triggers both lists hold, with the reading they share.
  const SAMPLE: [string, CueCategory, CueDirection][] = [
    ['no', 'negation', 'forward'],
    ['not', 'negation', 'forward'],
    ['without', 'negation', 'forward'],
    ['denies', 'negation', 'forward'],
    ['denied', 'negation', 'forward'],
    ['free of', 'negation', 'forward'],
    ['absence of', 'negation', 'forward'],
    ['negative for', 'negation', 'forward'],
    ['never had', 'negation', 'forward'],
    ['no sign of', 'negation', 'forward'],
    ['rule out', 'possibility', 'forward'],
    ['not ruled out', 'possibility', 'backward'],
    ['possible', 'possibility', 'forward'],
    ['worried about', 'possibility', 'forward'],
    ['if', 'hypothetical', 'forward'],
    ['but', 'terminate', 'terminate'],
    ['however', 'terminate', 'terminate'],
    ['although', 'terminate', 'terminate'],
    ['aside from', 'terminate', 'terminate'],
    ['not only', 'pseudo', 'forward'],
    ['without difficulty', 'pseudo', 'forward'],
  ];

  it.each(SAMPLE)('%s is %s %s here and in an open list', (phrase, category, direction) => {
    expect(ours(phrase)).toContainEqual({ phrase, category, direction });
    const open = [...(negexLabels().get(phrase) ?? []), ...(contextLabels().get(phrase) ?? [])];
    expect(open).toContainEqual({ category, direction });
  });

  it('gives every phrase it shares with an open list the same category', () => {
    const negex = negexLabels();
    const context = contextLabels();
    const disagreements: string[] = [];
    let shared = 0;
    for (const cue of CUES) {
      const open = [...(negex.get(cue.phrase) ?? []), ...(context.get(cue.phrase) ?? [])];
      if (open.length === 0) {
        continue;
      }
      shared++;
      // Directions may differ on purpose (in chat 'the rash has resolved' looks back), the
      // category may not.
      if (!open.some((o) => o.category === cue.category)) {
        disagreements.push(
          `${cue.phrase}: ${cue.category} vs ${open.map((o) => o.category).join(',')}`,
        );
      }
    }
    expect(shared).toBeGreaterThanOrEqual(25);
    expect(disagreements).toEqual([]);
  });
});

describe.runIf(HAVE_SOURCES)('the open trigger lists as cues', () => {
  it('imports NegEx triggers and ConText rules with their categories and directions', () => {
    const negex = importNegexTriggers(readSource('negex.triggers.txt'));
    const context = importContextRules(JSON.parse(readSource('medspacy.context_rules.json')));
    expect(negex.length).toBeGreaterThan(250);
    expect(context.length).toBeGreaterThan(90);
    expect(negex).toContainEqual({ phrase: 'denies', category: 'negation', direction: 'forward' });
    expect(negex).toContainEqual({ phrase: 'not only', category: 'pseudo', direction: 'forward' });
    expect(context).toContainEqual({
      phrase: 'absence of',
      category: 'negation',
      direction: 'forward',
    });
    expect(new Set(context.map((c) => c.category))).toEqual(
      new Set(['negation', 'possibility', 'hypothetical', 'historical', 'family', 'terminate']),
    );
    // Joined with the chat cues, a phrase of one reading is kept once.
    const merged = mergeCues(CUES, negex, context);
    expect(merged.filter((c) => c.phrase === 'denies' && c.category === 'negation')).toHaveLength(
      1,
    );
  });

  it('refuses a file that is not ConText rules', () => {
    expect(() => importContextRules({ rules: [] })).toThrow(/context_rules/);
  });
});
