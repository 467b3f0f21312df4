/**
 * The generated terminology of bench/typeahead (issue 22): concepts of made-up medical-sounding
 * words, and typeahead queries over them (prefixes, whole names, a dropped letter).
 */
import type { Concept } from '../packages/clinical/src/kb/format.ts';

// A small deterministic generator, so every run searches the same names. Before issue 22 it
// multiplied in floating point, lost the low bits and repeated itself after about 10,000 draws:
// the generated "terminology" was the same 659 concepts over and over (1,000,000 concepts were
// 1,500 copies of each). BENCH_LEGACY_GENERATOR=1 brings that back, to compare with old figures.
const LEGACY = process.env.BENCH_LEGACY_GENERATOR === '1';
let seed = 42;
const random = () => {
  seed = LEGACY
    ? (seed * 1_103_515_245 + 12_345) % 2 ** 31
    : (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
  return seed / 2 ** 31;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const SYLLABLES = [
  'ab',
  'ac',
  'al',
  'an',
  'ar',
  'bro',
  'car',
  'cho',
  'der',
  'dia',
  'en',
  'fib',
  'gas',
  'hep',
  'ic',
  'in',
  'ing',
  'ism',
  'itis',
  'lo',
  'ma',
  'neu',
  'os',
  'pa',
  'per',
  'pho',
  'pul',
  'ra',
  'ren',
  'ro',
  'sis',
  'ta',
  'thy',
  'tri',
  'ur',
  'vas',
];
const word = () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join('');
const phrase = () => Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(' ');

export function generateConcepts(count: number): Concept[] {
  seed = 42; // every size starts the same: 100,000 is the start of 1,000,000
  // The fields search does not read are shared by every concept, so 5,000,000 fit in memory.
  const none = Object.freeze([]) as unknown as [];
  const provenance = [{ source: 'bench', reference: 'generated' }];
  const concepts: Concept[] = [];
  for (let i = 0; i < count; i++) {
    concepts.push({
      id: `BENCH:${i}`,
      canonicalName: phrase(),
      aliases: random() < 0.5 ? [phrase()] : none,
      class: random() < 0.3 ? 'condition' : 'symptom',
      codes: none,
      provenance,
      parents: none,
      bodySystems: none,
      anatomicalLocations: none,
      pathologicalProcesses: none,
    } as unknown as Concept);
  }
  return concepts;
}

export function queriesFor(concepts: readonly Concept[], count: number): string[] {
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = pick(concepts).canonicalName;
    const kind = i % 3;
    if (kind === 0) {
      queries.push(name.slice(0, Math.max(3, Math.floor(name.length / 2)))); // typing a prefix
    } else if (kind === 1) {
      queries.push(name); // the whole name
    } else {
      const at = 1 + Math.floor(random() * (name.length - 2));
      queries.push(name.slice(0, at) + name.slice(at + 1)); // a dropped letter
    }
  }
  return queries;
}
