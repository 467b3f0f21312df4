import { describe, expect, it } from 'vitest';
import { splitSentences, tokenise } from './tokenise.ts';

describe('tokenise', () => {
  it.each([
    [
      'no fever',
      [
        ['no', 'word'],
        ['fever', 'word'],
      ],
    ],
    [
      "I can't sleep",
      [
        ['I', 'word'],
        ["can't", 'word'],
        ['sleep', 'word'],
      ],
    ],
    [
      'temp 37.5!',
      [
        ['temp', 'word'],
        ['37.5', 'number'],
        ['!', 'punct'],
      ],
    ],
    [
      'light-headed',
      [
        ['light', 'word'],
        ['-', 'punct'],
        ['headed', 'word'],
      ],
    ],
    [
      'I’m fine',
      [
        ['I’m', 'word'],
        ['fine', 'word'],
      ],
    ],
    [
      'for 3 days,',
      [
        ['for', 'word'],
        ['3', 'number'],
        ['days', 'word'],
        [',', 'punct'],
      ],
    ],
    ['café', [['café', 'word']]],
  ])('%s', (text, expected) => {
    expect(tokenise(text).map((t) => [t.text, t.kind])).toEqual(expected);
  });

  it('gives character offsets that slice back to the token', () => {
    const text = '  Bad cough, since   yesterday.';
    for (const token of tokenise(text)) {
      expect(text.slice(token.start, token.end)).toBe(token.text);
    }
    expect(tokenise(text)[0]).toEqual({ text: 'Bad', start: 2, end: 5, kind: 'word' });
  });
});

describe('splitSentences', () => {
  it.each([
    ['One. Two!  Three?', ['One.', 'Two!', 'Three?']],
    ['temp was 38.5 today. no rash', ['temp was 38.5 today.', 'no rash']],
    ['cough\nno fever', ['cough', 'no fever']],
    ['sore throat; no cough', ['sore throat;', 'no cough']],
    ['what?!? really', ['what?!?', 'really']],
    ['', []],
    ['   ', []],
  ])('%j', (text, expected) => {
    expect(splitSentences(text).map((s) => s.text)).toEqual(expected);
  });

  it('keeps offsets into the source', () => {
    const text = 'Hi.  No rash ';
    const [, second] = splitSentences(text);
    expect(second).toEqual({ text: 'No rash', start: 5, end: 12 });
  });
});
