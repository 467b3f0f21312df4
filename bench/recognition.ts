/**
 * Entity recognition at the scale of a large terminology (issue 22 item 3): the shipped knowledge
 * base plus generated concepts (the same syllable names as bench/typeahead.ts), one recogniser
 * per size, measured round by round in turn in one process so that the machine's load falls on
 * every size alike. Prints per size the build time, the recogniser's memory per concept (heap and
 * array buffers after building minus before, over the concepts given), characters per second
 * (wall and per CPU second), the ratio to the smallest size (overall, and the median of the rounds'
 * ratios), and the goal line (within 10%, from the medians); and
 * how long one step of the recogniser's stepwise build (the server's background build) holds the
 * event loop.
 * With BENCH_RECOGNITION_SCAN=1 the typo rule also runs without its index (the word compared with
 * every word of the dictionary: the reference, slow at large sizes). BENCH_RECOGNITION_TYPO=1
 * times the typo look-up alone (index, and with SCAN the comparison with every word).
 *
 *   npm run bench:recognition   (BENCH_RECOGNITION_SIZES=100000,1000000 BENCH_RECOGNITION_SECONDS=20)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Concept } from '../packages/clinical/src/kb/format.ts';
import { loadKnowledgeBase } from '../packages/clinical/src/kb/integrity.ts';
import type { Recogniser } from '../packages/clinical/src/nlp/recognise.ts';
import { buildRecogniser, createRecogniser } from '../packages/clinical/src/nlp/recognise.ts';
import { reportSteps, timeSteps } from './build-steps.ts';
import { TypoIndex, typoWords } from '../packages/clinical/src/nlp/typo-index.ts';
import { CHAT_MESSAGES } from '../packages/clinical/src/nlp/__fixtures__/chat-messages.ts';

const SIZES = (process.env.BENCH_RECOGNITION_SIZES ?? '100000,1000000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_RECOGNITION_SECONDS ?? 20);
const SCAN = process.env.BENCH_RECOGNITION_SCAN === '1';
const TYPO_ONLY = process.env.BENCH_RECOGNITION_TYPO === '1';

// bench/typeahead.ts's generator (integer arithmetic: the floating-point one of before repeated
// itself after about 10,000 draws, so a million concepts were the same 659 over and over).
let seed = 42;
const random = () => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
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
// The recogniser's trie and typo index are typed arrays, held outside the JavaScript heap: both
// are counted.
// An array buffer's memory is given back a moment after the collection that frees it.
const memory = async () => {
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
if (!gc) {
  console.log('note: run with node --expose-gc for the heap figures');
}

if (TYPO_ONLY) {
  // The typo rule's look-up alone over a dictionary of SIZES distinct syllable words: misspelt
  // words of the dictionary (a letter dropped) and the words of the chat fixtures.
  const largestWords = Math.max(...SIZES);
  // Distinct words: a generated word and the syllables of its number.
  const syllables = (n: number): string =>
    (n >= SYLLABLES.length ? syllables(Math.floor(n / SYLLABLES.length)) : '') +
    (SYLLABLES[n % SYLLABLES.length] as string);
  const words = Array.from({ length: largestWords }, (_, i) => word() + syllables(i));
  const queries = [
    ...Array.from({ length: 200 }, (_, i) => {
      const w = words[(i * 7919) % words.length] as string;
      const at = 1 + (i % Math.max(1, w.length - 2));
      return w.slice(0, at) + w.slice(at + 1);
    }),
    ...CHAT_MESSAGES.flatMap((m) => m.text.toLowerCase().split(/[^a-z]+/u)).filter(
      (w) => w.length >= 4,
    ),
  ];
  const none = () => false;
  for (const size of SIZES) {
    const vocabulary = words.slice(0, size);
    const before = await memory();
    const t0 = performance.now();
    const index = new TypoIndex(vocabulary, () => true);
    const built = (performance.now() - t0) / 1000;
    const bytes = (await memory()) - before;
    const rates: string[] = [];
    for (const [name, used] of SCAN
      ? ([
          ['index', index],
          ['every word', undefined],
        ] as const)
      : ([['index', index]] as const)) {
      let found = 0;
      let rounds = 0;
      const t1 = performance.now();
      while (performance.now() - t1 < (SECONDS * 1000) / SIZES.length / 2) {
        for (const q of queries) {
          found += typoWords(q, vocabulary, used, none).length;
        }
        rounds++;
      }
      const perSecond = (rounds * queries.length) / ((performance.now() - t1) / 1000);
      rates.push(
        `${name}: ${perSecond.toFixed(0)} look-ups/s (${(found / rounds).toFixed(0)} found a round)`,
      );
    }
    console.log(
      `typo.${size} build ${built.toFixed(1)} s, ${(bytes / size).toFixed(0)} bytes/word (${index.size} postings); ${rates.join('  ')}`,
    );
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
  size: number;
  recogniser: Recogniser;
  seconds: number;
  cpuSeconds: number;
  characters: number;
}
const subjects: Subject[] = [];
const largest = Math.max(...SIZES);
const all = generate(largest);
for (const size of SIZES) {
  const concepts = [...kb.items.concepts, ...all.slice(0, size)];
  for (const reference of SCAN ? [false, true] : [false]) {
    const before = await memory();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // The recogniser's build driven step by step (as the server's background build runs it):
    // how long one step holds the event loop.
    const stepped = reference ? undefined : await timeSteps(buildRecogniser(concepts, {}));
    const recogniser = stepped?.value ?? createRecogniser(concepts, { typoIndex: false });
    const cpu = process.cpuUsage(cpu0);
    const built = (performance.now() - t0) / 1000;
    const bytes = (await memory()) - before;
    const name = `${reference ? 'every_word' : 'recogniser'}.${size}`;
    console.log(
      `${name}.build_seconds: ${built.toFixed(1)} (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)})  ${name}.bytes_per_concept: ${(bytes / concepts.length).toFixed(0)}  (${concepts.length} concepts, ${recogniser.size} names, ${(bytes / 2 ** 20).toFixed(0)} MiB)`,
    );
    if (stepped) {
      reportSteps(name, stepped.times);
    }
    subjects.push({ name, size, recogniser, seconds: 0, cpuSeconds: 0, characters: 0 });
  }
}

// Round by round in turn until every subject has run SECONDS / subjects; the order within a round
// alternates, so that neither size always runs right after the other's garbage. Each round gives
// each subject's wall-clock time and the processor time of this thread (clock_gettime, precise;
// the other processes of a loaded machine do not inflate it). A round's ratio compares sizes
// measured within the same second or two; the goal is read from the median of the rounds' ratios.
// The totals give characters per second (wall) and per CPU second of the whole process (the
// garbage collector's threads included).
// A round runs the texts several times per subject (about 0.2 s of CPU each, as the warm-up pass gauged),
// so that no round's figure rests on a few milliseconds; one pass each before, to warm up.
const pass0 = process.cpuUsage();
for (const subject of subjects) {
  for (const text of texts) {
    subject.recogniser.recognise(text);
  }
}
const passCpu = process.cpuUsage(pass0);
const passes = Math.max(
  1,
  Math.round((0.2 * subjects.length * 1e6) / (passCpu.user + passCpu.system)),
);
const deadline = performance.now() + SECONDS * 1000;
const rounds: { seconds: number; cpuSeconds: number }[][] = [];
while (performance.now() < deadline) {
  const round = subjects.map(() => ({ seconds: 0, cpuSeconds: 0 }));
  const order = rounds.length % 2 === 0 ? subjects : [...subjects].reverse();
  for (const subject of order) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const thread0 = process.threadCpuUsage();
    for (let pass = 0; pass < passes; pass++) {
      for (const text of texts) {
        subject.recogniser.recognise(text);
      }
    }
    const thread = process.threadCpuUsage(thread0);
    const cpu = process.cpuUsage(cpu0);
    const measured = round[subjects.indexOf(subject)] as { seconds: number; cpuSeconds: number };
    measured.cpuSeconds = (thread.user + thread.system) / 1e6;
    measured.seconds = (performance.now() - t0) / 1000;
    subject.cpuSeconds += (cpu.user + cpu.system) / 1e6;
    subject.seconds += measured.seconds;
    subject.characters += passes * characters;
  }
  rounds.push(round);
}
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
/** The median over rounds of subject `i`'s rate over subject `j`'s (wall, or CPU). */
const roundRatio = (i: number, j: number, cpu: boolean): number =>
  median(
    rounds.map((round) => {
      const a = round[i] as { seconds: number; cpuSeconds: number };
      const b = round[j] as { seconds: number; cpuSeconds: number };
      return cpu ? b.cpuSeconds / a.cpuSeconds : b.seconds / a.seconds;
    }),
  );
const rate = (s: Subject) => s.characters / s.seconds;
const cpuRate = (s: Subject) => s.characters / s.cpuSeconds;
const base = subjects[0] as Subject;
for (const [i, subject] of subjects.entries()) {
  console.log(
    `${subject.name}.characters_per_second: ${rate(subject).toFixed(0)} (per CPU second ${cpuRate(subject).toFixed(0)}, ${((1e9 * subject.cpuSeconds) / subject.characters).toFixed(0)} ns of CPU a character)  ratio_vs_${base.name}: ${(rate(subject) / rate(base)).toFixed(2)} (CPU ${(cpuRate(subject) / cpuRate(base)).toFixed(2)}; median of ${rounds.length} rounds of ${passes} passes ${roundRatio(i, 0, false).toFixed(2)}, thread CPU ${roundRatio(i, 0, true).toFixed(2)})`,
  );
}
// The goal (issue 22 item 3): the largest size against 100,000 (or the smallest when not run),
// the lower of the medians of the rounds' wall and CPU ratios.
const indexed = subjects.filter((s) => s.name.startsWith('recogniser'));
const top = indexed.find((s) => s.size === largest);
const low = indexed.find((s) => s.size === 100_000) ?? base;
if (top && top !== low) {
  const [i, j] = [subjects.indexOf(top), subjects.indexOf(low)];
  const ratio = Math.min(roundRatio(i, j, false), roundRatio(i, j, true));
  console.log(
    `goal: characters/s at ${largest} concepts within 10% of ${low.size} (ratio ≥ 0.90, the lower of the rounds' median wall and thread-CPU ratios): ${ratio.toFixed(2)} → ${ratio >= 0.9 ? 'met' : 'NOT met'}`,
  );
}
process.exit(0);
