import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allowedEdits, boundedEditDistance } from '../search/text.ts';
import {
  sameLetters,
  sameUndoubled,
  TYPO_CANDIDATES_MAX,
  typoCloseness,
  TypoIndex,
  typoWords,
  undoubled,
} from './typo-index.ts';

// Issue 22 item 3: the deletion index finds exactly the words the typo rule accepts, as comparing
// the word with every word of the dictionary does, however dense the vocabulary.
describe('deletion index of the typo rule', () => {
  let seed = 7;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
    return seed / 2 ** 31;
  };
  const letters = 'aeioulnrstmpcdh';
  const wordOf = (length: number) =>
    Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('');
  // A dense vocabulary of short words over few letters: many words within two edits of another.
  const words = [
    ...new Set(Array.from({ length: 6000 }, () => wordOf(3 + Math.floor(random() * 8)))),
    'diarrhea',
    'chills',
    'dizzy',
    'pain',
    'asthma',
  ];
  const index = new TypoIndex(words, () => true);
  const none = () => false;

  it('accepts the same words as the comparison with every word, for every kind of typo', () => {
    const edit = (word: string, i: number): string => {
      const at = 1 + Math.floor(random() * Math.max(1, word.length - 1));
      const letter = letters[i % letters.length] as string;
      switch (i % 6) {
        case 0:
          return word.slice(0, at) + word.slice(at + 1);
        case 1:
          return word.slice(0, at) + letter + word.slice(at);
        case 2:
          return word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
        case 3:
          return word.slice(0, at) + letter + word.slice(at + 1);
        case 4:
          return (
            word.slice(0, at) +
            word.slice(at + 2, at + 3) +
            word.slice(at, at + 2) +
            word.slice(at + 3)
          );
        default:
          return edit(edit(word, i + 1), i + 3);
      }
    };
    const keys = [
      ...Array.from({ length: 1500 }, (_, i) => edit(words[(i * 37) % words.length] as string, i)),
      'diarhea',
      'chils',
      'dizy',
      'dizzzzy',
      'pian',
      'athsma',
    ].filter((k) => k.length >= 4);
    let accepted = 0;
    for (const key of keys) {
      const expected = typoWords(key, words, undefined, none);
      expect(typoWords(key, words, index, none)).toEqual(expected);
      accepted += expected.length;
    }
    console.log(`typo index: ${keys.length} words, ${accepted} accepted`);
    expect(accepted).toBeGreaterThan(keys.length / 2);
    const named = (key: string) => typoWords(key, words, index, none).map((id) => words[id]);
    expect(named('diarhea')).toContain('diarrhea');
    expect(named('chils')).toContain('chills');
    expect(named('dizzzzy')).toContain('dizzy');
    expect(named('pian')).toContain('pain');
    expect(named('athsma')).toContain('asthma');
  }, 60_000);

  it(`keeps the ${TYPO_CANDIDATES_MAX} closest words when more are accepted`, () => {
    // For 'bbbbbbbbz': three words two edits away, then 25 one edit away ('bbbbbbbaz'…).
    const far = ['bbbbbbacz', 'bbbbbbdez', 'bbbbbbfgz'];
    const near = 'acdefghijklmnopqrstuvwxyz'.split('').map((x) => `bbbbbbb${x}z`);
    const many = [...far, ...near];
    const reference = typoWords('bbbbbbbbz', many, undefined, none);
    const found = typoWords('bbbbbbbbz', many, new TypoIndex(many, () => true), none);
    expect(found).toEqual(reference);
    // The nearest first, ties by number: the first sixteen of the near words.
    expect(found).toEqual(Array.from({ length: TYPO_CANDIDATES_MAX }, (_, i) => far.length + i));
  });
});

// The typo rule reads the distance in reused rows and compares single forms by one walk: the same
// answers as the edit distance and the single forms made as strings.
describe('the typo rule without allocating', () => {
  const reference = (key: string, word: string): number => {
    if (word.length < 4 || word.charCodeAt(0) !== key.charCodeAt(0)) {
      return -1;
    }
    const bound = Math.max(
      key.length === 4 ? 1 : allowedEdits(key.length),
      key.length === 5 || key.length === 6 ? 2 : 0,
    );
    const d = boundedEditDistance(key, word, bound);
    const edits = key.length === 4 ? 1 : allowedEdits(key.length);
    const anagram = key.length === 5 || key.length === 6 ? 2 : 0;
    const accepted =
      key.length === 4
        ? word.length === 4 && d <= 1 && sameLetters(word, key)
        : word.length >= 5 &&
          (d <= edits || (d <= anagram && word.length === key.length && sameLetters(word, key)));
    if (accepted) {
      return d;
    }
    return undoubled(word) === undoubled(key) ? Math.min(d, bound + 1) : -1;
  };
  const word = fc
    .array(fc.constantFrom('a', 'b', 'r', 'h', 'é', '1', '-', '𝒜'), { minLength: 1, maxLength: 10 })
    .map((l) => `d${l.join('')}`);

  it('gives the closeness of the edit distance and of the single forms as strings', () => {
    fc.assert(
      fc.property(word, word, (key, other) => {
        expect(typoCloseness(key, other)).toBe(reference(key, other));
        expect(sameUndoubled(key, other)).toBe(undoubled(key) === undoubled(other));
      }),
      { seed: 11, numRuns: 3_000 },
    );
    expect(typoCloseness('diarhea', 'diarrhea')).toBe(1);
    expect(sameUndoubled('chils', 'chills')).toBe(true);
  });
});
