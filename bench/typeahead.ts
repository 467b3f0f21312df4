/**
 * bench/typeahead: concept search over 100,000 generated concepts, against a pg_trgm GIN query
 * on the same names in PostgreSQL and against MiniSearch, all in one run; and entity recognition
 * in characters per second. Prints `name: value` lines and ratios. Not a test: nothing asserts.
 *
 *   npm run bench:typeahead   (BENCH_DATABASE_URL, BENCH_CONCEPTS, BENCH_QUERIES to adjust)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import pg from 'pg';
import { createConceptIndex } from '../packages/clinical/src/search/concept-search.ts';
import { loadKnowledgeBase } from '../packages/clinical/src/kb/integrity.ts';
import type { Concept } from '../packages/clinical/src/kb/format.ts';
import { createRecogniser } from '../packages/clinical/src/nlp/recognise.ts';
import { CHAT_MESSAGES } from '../packages/clinical/src/nlp/__fixtures__/chat-messages.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const COUNT = Number(process.env.BENCH_CONCEPTS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2000);

// A small deterministic generator, so every run searches the same names.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
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

function generateConcepts(): Concept[] {
  const concepts: Concept[] = [];
  for (let i = 0; i < COUNT; i++) {
    concepts.push({
      id: `BENCH:${i}`,
      canonicalName: phrase(),
      aliases: random() < 0.5 ? [phrase()] : [],
      class: random() < 0.3 ? 'condition' : 'symptom',
      codes: [],
      provenance: [{ source: 'bench', reference: 'generated' }],
      parents: [],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
    } as unknown as Concept);
  }
  return concepts;
}

function queriesFor(concepts: readonly Concept[]): string[] {
  const queries: string[] = [];
  for (let i = 0; i < QUERIES; i++) {
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

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function timeQueries(
  queries: readonly string[],
  run: (q: string) => unknown,
): { p50: number; p95: number; qps: number } {
  const latencies: number[] = [];
  const started = performance.now();
  for (const query of queries) {
    const t0 = performance.now();
    run(query);
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    qps: queries.length / seconds,
  };
}

async function pgTrgm(
  concepts: readonly Concept[],
  queries: readonly string[],
): Promise<{ p50: number; p95: number; qps: number }> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query('drop database if exists loopdesk_bench_trgm with (force)');
  await admin.query('create database loopdesk_bench_trgm');
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = '/loopdesk_bench_trgm';
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  await client.query('create extension if not exists pg_trgm');
  await client.query('create table names (concept text not null, name text not null)');
  const rows = concepts.flatMap((c) =>
    [c.canonicalName, ...c.aliases].map((name) => [c.id, name] as const),
  );
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await client.query(
      'insert into names (concept, name) select * from unnest($1::text[], $2::text[])',
      [chunk.map((r) => r[0]), chunk.map((r) => r[1])],
    );
  }
  await client.query('create index names_trgm on names using gin (name gin_trgm_ops)');
  await client.query('analyze names');
  const latencies: number[] = [];
  const started = performance.now();
  for (const query of queries) {
    const t0 = performance.now();
    await client.query(
      `select concept, name, similarity(name, $1) as score from names
       where name % $1 or name ilike $2
       order by score desc limit 20`,
      [query, `${query.replace(/[%_\\]/g, '\\$&')}%`],
    );
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  await client.end();
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    qps: queries.length / seconds,
  };
}

function report(name: string, r: { p50: number; p95: number; qps: number }) {
  console.log(`${name}.p50_ms: ${r.p50.toFixed(3)}`);
  console.log(`${name}.p95_ms: ${r.p95.toFixed(3)}`);
  console.log(`${name}.queries_per_second: ${r.qps.toFixed(0)}`);
}

const concepts = generateConcepts();
const queries = queriesFor(concepts);
console.log(`concepts: ${COUNT}`);
console.log(`queries: ${QUERIES}`);

let t0 = performance.now();
const index = createConceptIndex(concepts);
console.log(`loopdesk.build_ms: ${(performance.now() - t0).toFixed(0)}`);
const ours = timeQueries(queries, (q) => index.search(q, { limit: 20 }));
report('loopdesk', ours);

t0 = performance.now();
const mini = new MiniSearch<{ id: string; name: string; aliases: string }>({
  fields: ['name', 'aliases'],
  storeFields: ['name'],
});
mini.addAll(
  concepts.map((c) => ({ id: c.id, name: c.canonicalName, aliases: c.aliases.join(' ') })),
);
console.log(`minisearch.build_ms: ${(performance.now() - t0).toFixed(0)}`);
const theirs = timeQueries(queries, (q) =>
  mini.search(q, { prefix: true, fuzzy: 0.2 }).slice(0, 20),
);
report('minisearch', theirs);

const trgm = await pgTrgm(concepts, queries);
report('pg_trgm', trgm);

console.log(`ratio.p95_vs_pg_trgm: ${(ours.p95 / trgm.p95).toFixed(2)}`);
console.log(`ratio.qps_vs_minisearch: ${(ours.qps / theirs.qps).toFixed(2)}`);

// Entity recognition over the shipped knowledge base, in characters per second.
const kb = loadKnowledgeBase(
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../data/kb/kb.json'), 'utf8')),
);
const recogniser = createRecogniser(kb.items.concepts);
const texts = CHAT_MESSAGES.map((m) => m.text);
let characters = 0;
t0 = performance.now();
for (let round = 0; round < 50; round++) {
  for (const text of texts) {
    recogniser.recognise(text);
    characters += text.length;
  }
}
console.log(
  `ner.characters_per_second: ${(characters / ((performance.now() - t0) / 1000)).toFixed(0)}`,
);
process.exit(0);
