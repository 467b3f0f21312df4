/** What a token is: a run of letters (with inner apostrophes), a number, or one punctuation mark. */
export type TokenKind = 'word' | 'number' | 'punct';

/** A token with its character offsets in the source text (`end` is exclusive). */
export interface Token {
  text: string;
  start: number;
  end: number;
  kind: TokenKind;
}

/** A sentence: a character range of the source text. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

// Words keep inner apostrophes ("can't", "I’m"); numbers keep a decimal part ("37.5", "1,000").
const TOKEN = /(\p{L}[\p{L}\p{M}]*(?:['’]\p{L}+)*)|(\d+(?:[.,]\d+)*)|([^\s\p{L}\p{N}])/gu;

/** Splits text into word, number and punctuation tokens with character offsets. */
export function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    const kind: TokenKind =
      match[1] !== undefined ? 'word' : match[2] !== undefined ? 'number' : 'punct';
    tokens.push({ text: match[0], start, end: start + match[0].length, kind });
  }
  return tokens;
}

/**
 * Splits text into sentences at '.', '!', '?' (and runs of them) followed by white space or the
 * end, at ';', and at line breaks. A full stop inside a number ('37.5') does not split. Leading
 * and trailing white space is left out of each sentence.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  const push = (from: number, to: number): void => {
    let start = from;
    let end = to;
    while (start < end && /\s/u.test(text[start] ?? '')) {
      start++;
    }
    while (end > start && /\s/u.test(text[end - 1] ?? '')) {
      end--;
    }
    if (end > start) {
      sentences.push({ text: text.slice(start, end), start, end });
    }
  };
  const boundary = /[.!?]+(?=\s|$)|[;\n]+/gu;
  let from = 0;
  for (const match of text.matchAll(boundary)) {
    const to = match.index + match[0].length;
    push(from, match[0].startsWith('\n') ? match.index : to);
    from = to;
  }
  push(from, text.length);
  return sentences;
}
