/**
 * Entity recognition at the scale of a large terminology (issue 22 item 3): the shipped knowledge
 * base plus generated concepts (the same syllable names as bench/typeahead.ts), one recogniser
 * per size, measured round by round in turn in one process so that the machine's load falls on
 * every size alike. Prints characters per second per size, the ratio to the smallest size, and
 * the recogniser's heap per concept (heap after building minus before, over the concepts given).
 * With BENCH_RECOGNITION_SCAN=1 the typo rule also runs as before issue 22 (every child of a trie
 * node compared with the word) for the same sizes, as the peer.
 *
 *   npm run bench:recognition   (BENCH_RECOGNITION_SIZES=100000,1000000 BENCH_RECOGNITION_SECONDS=20)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Concept } from '../packages/clinical/src/kb/format.ts';
import { loadKnowledgeBase } from '../packages/clinical/src/kb/integrity.ts';
import type { Recogniser } from '../packages/clinical/src/nlp/recognise.ts';
import { createRecogniser } from '../packages/clinical/src/nlp/recognise.ts';
import type { NameEntry, TrieNode } from '../packages/clinical/src/nlp/matching.ts';
import { fuzzyMatcher, node } from '../packages/clinical/src/nlp/matching.ts';
import { CHAT_MESSAGES } from '../packages/clinical/src/nlp/__fixtures__/chat-messages.ts';

const SIZES = (process.env.BENCH_RECOGNITION_SIZES ?? '100000,1000000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_RECOGNITION_SECONDS ?? 20);
const SCAN = process.env.BENCH_RECOGNITION_SCAN === '1';
// BENCH_RECOGNITION_TYPO=1: only the typo rule's lookup at one trie node holding SIZES words (the
// step that walked every child), index against scan; cheap enough for a loaded machine.
const TYPO_ONLY = process.env.BENCH_RECOGNITION_TYPO === '1';

let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
// bench/typeahead.ts's syllables.
const SYLLABLES = [
  ...['ab', 'ac', 'al', 'an', 'ar', 'bro', 'car', 'cho', 'der', 'dia', 'en', 'fib', 'gas', 'hep'],
  ...['ic', 'in', 'ing', 'ism', 'itis', 'lo', 'ma', 'neu', 'os', 'pa', 'per', 'pho', 'pul', 'ra'],
  ...['ren', 'ro', 'sis', 'ta', 'thy', 'tri', 'ur', 'vas'],
];
const word = () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join('');
const phrase = () => Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(' ');

function generate(count: number): Concept[] {
  const concepts: Concept[] = [];
  for (let i = 0; i < count; i++) {
    concepts.push({
      id: `BENCH:${i}`,
      canonicalName: phrase(),
      aliases: random() < 0.5 ? [phrase()] : [],
      class: random() < 0.3 ? 'condition' : 'symptom',
      codes: [],
      provenance: [{ source: 'bench', reference: 'generated' }],
    } as unknown as Concept);
  }
  return concepts;
}

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
if (!gc) {
  console.log('note: run with node --expose-gc for the heap figures');
}

if (TYPO_ONLY) {
  // Misspelt words of the generated names (a letter dropped) and of the chat fixtures' words.
  const largestWords = Math.max(...SIZES);
  // Distinct words: a generated word and the syllables of its number.
  const syllables = (n: number): string =>
    (n >= SYLLABLES.length ? syllables(Math.floor(n / SYLLABLES.length)) : '') +
    (SYLLABLES[n % SYLLABLES.length] as string);
  const words = Array.from({ length: largestWords }, (_, i) => word() + syllables(i));
  const queries = Array.from({ length: 200 }, (_, i) => {
    const w = words[(i * 7919) % words.length] as string;
    const at = 1 + (i % Math.max(1, w.length - 2));
    return w.slice(0, at) + w.slice(at + 1);
  });
  for (const size of SIZES) {
    const root: TrieNode<NameEntry> = node();
    for (const w of words.slice(0, size)) {
      root.children.set(w, node());
    }
    const vocabulary = new Set(root.children.keys());
    const rates: string[] = [];
    const peers = [
      ['index', undefined],
      ['scan', Infinity],
    ] as const;
    for (const [name, min] of SCAN ? peers : peers.slice(0, 1)) {
      const lookup = fuzzyMatcher(vocabulary, min);
      lookup(queries[0] as string, root); // builds the index
      let found = 0;
      const t0 = performance.now();
      let rounds = 0;
      while (performance.now() - t0 < (SECONDS * 1000) / SIZES.length / 2) {
        for (const q of queries) {
          found += lookup(q, root).length;
        }
        rounds++;
      }
      const perSecond = (rounds * queries.length) / ((performance.now() - t0) / 1000);
      rates.push(`${name}: ${perSecond.toFixed(0)} lookups/s (${found / rounds} found a round)`);
    }
    console.log(`typo.${size} (${root.children.size} children) ${rates.join('  ')}`);
  }
  process.exit(0);
}

const kb = loadKnowledgeBase(
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../data/kb/kb.json'), 'utf8')),
);
const texts = CHAT_MESSAGES.map((m) => m.text);
const characters = texts.reduce((n, t) => n + t.length, 0);

interface Subject {
  name: string;
  recogniser: Recogniser;
  seconds: number;
  characters: number;
}
const subjects: Subject[] = [];
const largest = Math.max(...SIZES);
const all = generate(largest);
for (const size of SIZES) {
  const concepts = [...kb.items.concepts, ...all.slice(0, size)];
  for (const scan of SCAN ? [false, true] : [false]) {
    const before = heap();
    const t0 = performance.now();
    const recogniser = createRecogniser(concepts, scan ? { fuzzyIndexMin: Infinity } : {});
    recogniser.recognise(texts.join('\n')); // the typo index is built on first use
    const built = (performance.now() - t0) / 1000;
    const bytes = heap() - before;
    const name = `${scan ? 'scan' : 'recogniser'}.${size}`;
    console.log(
      `${name}.build_seconds: ${built.toFixed(1)}  ${name}.bytes_per_concept: ${(bytes / concepts.length).toFixed(0)}  (${recogniser.size} names)`,
    );
    subjects.push({ name, recogniser, seconds: 0, characters: 0 });
  }
}

// Round by round in turn until every subject has run SECONDS / subjects.
const deadline = performance.now() + SECONDS * 1000;
while (performance.now() < deadline) {
  for (const subject of subjects) {
    const t0 = performance.now();
    for (const text of texts) {
      subject.recogniser.recognise(text);
    }
    subject.seconds += (performance.now() - t0) / 1000;
    subject.characters += characters;
  }
}
const rate = (s: Subject) => s.characters / s.seconds;
const base = subjects[0] as Subject;
for (const subject of subjects) {
  console.log(
    `${subject.name}.characters_per_second: ${rate(subject).toFixed(0)}  ratio_vs_${base.name}: ${(rate(subject) / rate(base)).toFixed(2)}`,
  );
}
process.exit(0);
