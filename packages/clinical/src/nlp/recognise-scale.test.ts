import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Concept } from '../kb/format.ts';
import { KnowledgeBase } from '../kb/format.ts';
import { SHIPPED_KB_PATH } from '../testing/sources.ts';
import { CHAT_MESSAGES } from './__fixtures__/chat-messages.ts';
import type { Recogniser } from './recognise.ts';
import { createRecogniser } from './recognise.ts';

// Issue 22 item 3: the typo rule reads a deletion index of the dictionary's words instead of
// comparing the word with every child of a trie node (the walk that grew with the knowledge base).
// Same results required: the reference compares the word with every word of the dictionary.
describe('typo index of the recogniser', () => {
  let concepts: Concept[];
  let scan: Recogniser;
  let indexed: Recogniser;
  let texts: string[];
  beforeAll(() => {
    concepts = KnowledgeBase.parse(JSON.parse(readFileSync(SHIPPED_KB_PATH, 'utf8'))).items
      .concepts;
    scan = createRecogniser(concepts, { typoIndex: false });
    indexed = createRecogniser(concepts);
    const dev = readFileSync(path.join(SHIPPED_KB_PATH, '../../eval/dev.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { text: string }).text);
    texts = [...CHAT_MESSAGES.map((m) => m.text), ...dev];
  });

  it('finds the same entities as the scan on the chat fixtures and the development messages', () => {
    let fuzzy = 0;
    for (const text of texts) {
      const expected = scan.recognise(text).entities;
      expect(indexed.recognise(text).entities).toEqual(expected);
      fuzzy += expected.filter((e) => e.fuzzy).length;
    }
    expect(fuzzy).toBeGreaterThan(5); // the typo rule is exercised
  });

  it('finds the same typos as the scan for misspelt names of the whole KB', () => {
    // Each name's words misspelt by rule: a letter dropped, doubled, swapped, changed, moved.
    const misspell = (word: string, i: number): string => {
      const at = 1 + (i % Math.max(1, word.length - 2));
      switch (i % 5) {
        case 0:
          return word.slice(0, at) + word.slice(at + 1);
        case 1:
          return word.slice(0, at) + (word[at] ?? '') + word.slice(at);
        case 2:
          return word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2);
        case 3:
          return `${word.slice(0, at)}e${word.slice(at + 1)}`;
        default:
          return (
            word.slice(0, at) +
            word.slice(at + 2, at + 3) +
            word.slice(at, at + 2) +
            word.slice(at + 3)
          );
      }
    };
    const names = concepts.flatMap((c) => [c.canonicalName, ...c.aliases]);
    let compared = 0;
    let fuzzy = 0;
    // One batch of 40 names in five, round the whole KB.
    for (let start = 0; start < names.length; start += 200) {
      const text = names
        .slice(start, start + 40)
        .map((name, i) =>
          name
            .split(' ')
            .map((w) => (w.length >= 4 ? misspell(w, start + i) : w))
            .join(' '),
        )
        .join('. ');
      const expected = scan.recognise(text).entities;
      expect(indexed.recognise(text).entities).toEqual(expected);
      compared += expected.length;
      fuzzy += expected.filter((e) => e.fuzzy).length;
    }
    expect(compared).toBeGreaterThan(300);
    expect(fuzzy).toBeGreaterThan(30);
  }, 120_000);

  it('ranks a name shared by many concepts the same at every mention, with fresh candidates', () => {
    const shared = Array.from({ length: 60 }, (_, i) => ({
      id: `T:${String(59 - i).padStart(2, '0')}`,
      canonicalName: i === 30 ? 'zorblax' : `zorblax kind ${i}`,
      aliases: i === 30 ? [] : ['zorblax'],
      class: i % 3 === 0 ? 'condition' : 'symptom',
      codes: [],
      provenance: [{ source: 'test', reference: String(i) }],
    })) as unknown as Concept[];
    const recogniser = createRecogniser(shared);
    const [a, b] = recogniser.recognise('zorblax, then zorblax again').entities;
    // The canonical name first, then symptoms before conditions, then by id.
    expect(a?.conceptId).toBe('T:29');
    expect(a?.candidates).toHaveLength(60);
    expect(a?.candidates.slice(1, 3).map((c) => c.conceptId)).toEqual(['T:00', 'T:01']);
    expect(b?.candidates).toEqual(a?.candidates);
    a?.candidates.splice(0);
    (b?.candidates[0] as { canonicalName: string }).canonicalName = 'changed';
    expect(recogniser.recognise('zorblax').entities[0]?.candidates[0]).toMatchObject({
      conceptId: 'T:29',
      canonicalName: 'zorblax',
    });
  });
});
