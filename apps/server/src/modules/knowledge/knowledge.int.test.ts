// Issue 22: a large terminology is indexed in the background; the server answers meanwhile.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Concept } from '@loopdesk/clinical/kb/format.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../platform/config.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { NAMES_PER_CONCEPT } from '@loopdesk/clinical/search/build.ts';
import { BACKGROUND_INDEX_NAMES, nameCount } from './knowledge.ts';

const SYLLABLES = ['ab', 'car', 'dia', 'fib', 'hep', 'itis', 'neu', 'pho', 'ren', 'thy', 'ur'];

/** The shipped knowledge base grown by `count` generated concepts (distinct two-word names). */
function largeKnowledgeBase(count: number): { items: { concepts: unknown[] } } {
  const kb = JSON.parse(readFileSync(path.join(REPO_ROOT, 'data/kb/kb.json'), 'utf8')) as {
    items: { concepts: unknown[] };
  };
  const word = (n: number) => {
    let text = '';
    for (let k = 0; k < 5; k++, n = Math.floor(n / SYLLABLES.length)) {
      text += SYLLABLES[n % SYLLABLES.length] as string;
    }
    return text;
  };
  for (let i = 0; i < count; i++) {
    kb.items.concepts.push({
      id: `GEN:${i}`,
      canonicalName: `${word(i)} ${word(i * 7 + 3)}`,
      aliases: i % 2 === 0 ? [`${word(i * 13 + 5)} ${word(i)}`] : [],
      class: 'symptom',
      parents: [],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
      codes: [],
      provenance: [{ source: 'test', reference: 'generated' }],
    });
  }
  return kb;
}

describe('a knowledge base past the background-index threshold', () => {
  let t: TestApp;
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'loopdesk-kb-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('answers /healthz while concept search and the recogniser are still being built, then answers from all of them', async () => {
    // Just past the threshold: the generated concepts alone hold as many names (half of them have
    // an alias), the shipped ones add theirs.
    const count = Math.ceil((BACKGROUND_INDEX_NAMES * 2) / 3);
    const kb = largeKnowledgeBase(count);
    expect(nameCount(kb.items.concepts as Concept[])).toBeGreaterThanOrEqual(
      BACKGROUND_INDEX_NAMES,
    );
    const file = path.join(folder, 'large-kb.json');
    writeFileSync(file, JSON.stringify(kb));
    t = await startTestApp({ listen: true, env: { KB_PATH: file } });

    // First, the server is up while the index and the recogniser are built in steps between other
    // work. Meg signs in, types a generated concept's name and asks the NLP service to read it:
    // her calls wait for what they read, nothing else does.
    let built = false;
    const { knowledge } = t.app;
    const ready = Promise.all([knowledge.index.ready, knowledge.recogniser.ready]).then(() => {
      built = true;
    });
    const last = count - 1;
    const name = (t.app.knowledge.byId.get(`GEN:${last}`) as { canonicalName: string })
      .canonicalName;
    const meg = tokenForRoles(t, 'meg@example.test', ['medical']);
    const typeahead = meg.then(({ token }) =>
      fetch(`${t.baseUrl}/internal/utilities/typeahead?t=${encodeURIComponent(name)}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    const sam = tokenForRoles(t, 'sam@example.test', ['sysadmin']);
    const entities = sam.then(({ token }) =>
      fetch(`${t.baseUrl}/internal/nlp/entities?resolve=true`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `Since Monday I have had ${name}.` }),
      }),
    );
    const answeredDuringBuild: number[] = [];
    while (!built) {
      const response = await fetch(`${t.baseUrl}/healthz`);
      await response.arrayBuffer();
      if (!built) {
        answeredDuringBuild.push(response.status);
      }
    }
    await ready;
    expect(answeredDuringBuild.length).toBeGreaterThan(0);
    expect(answeredDuringBuild.every((status) => status === 200)).toBe(true);

    // Then, her search answers from every concept, the last generated one first.
    const response = await typeahead;
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as {
      results: { conceptId: string; relevance: number }[];
    };
    expect(results[0]).toMatchObject({ conceptId: `GEN:${last}`, relevance: 1 });
    // And the recogniser read the name with every concept's names in it.
    const read = await entities;
    expect(read.status).toBe(200);
    const found = (await read.json()) as {
      entities: { original: string; concepts: { coding: { code: string } }[] }[];
    };
    expect(found.entities).toContainEqual(
      expect.objectContaining({
        original: name,
        concepts: [
          expect.objectContaining({ coding: expect.objectContaining({ code: `GEN:${last}` }) }),
        ],
      }),
    );
  }, 300_000);
});

describe('a knowledge base whose concept index cannot be built', () => {
  it('logs the failure once and answers 503 with what to do where search is needed; /healthz and recognition go on', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'loopdesk-kb-'));
    // A concept with more aliases than concept search holds (an entry's name is 16 bits): a
    // terminology imported with every synonym of a large group under one concept. The knowledge
    // base is valid, the recogniser reads it; the index refuses it, naming the concept. Its names
    // put the KB past the threshold of the background builds.
    const kb = largeKnowledgeBase(0);
    kb.items.concepts.push({
      id: 'MANY:0',
      canonicalName: 'many names',
      aliases: Array.from({ length: NAMES_PER_CONCEPT }, (_, i) => `many names ${i}`),
      class: 'symptom',
      parents: [],
      bodySystems: [],
      anatomicalLocations: [],
      pathologicalProcesses: [],
      codes: [],
      provenance: [{ source: 'test', reference: 'generated' }],
    });
    expect(nameCount(kb.items.concepts as Concept[])).toBeGreaterThanOrEqual(
      BACKGROUND_INDEX_NAMES,
    );
    const file = path.join(folder, 'broken-kb.json');
    writeFileSync(file, JSON.stringify(kb));
    const lines: { level: number; msg: string }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as { level: number; msg: string });
        }
        done();
      },
    });
    const t = await startTestApp({ env: { KB_PATH: file }, logger: { level: 'error', stream } });
    try {
      await expect(t.app.knowledge.index.ready).rejects.toThrow();
      await t.app.knowledge.recogniser.ready;
      const failures = lines.filter((l) => l.msg.startsWith('concept search: building it'));
      expect(failures).toHaveLength(1);

      const { token } = await tokenForRoles(t, 'meg@example.test', ['medical', 'experimental']);
      const auth = { authorization: `Bearer ${token}` };
      for (const url of [
        '/internal/utilities/typeahead?t=fever',
        '/internal/data-preparation/query/umls_view?q=fever',
      ]) {
        const response = await t.app.inject({ method: 'GET', url, headers: auth });
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toMatch(
          /^Concept search is not available: building it from the knowledge base failed \(concept MANY:0 has 65536 aliases; concept search holds at most 65535 per concept: remove aliases from it.*\)\. Fix the knowledge base \(KB_PATH\) and restart the server/,
        );
      }
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const sam = (await tokenForRoles(t, 'sam@example.test', ['sysadmin'])).token;
      const nlp = (url: string, payload: Record<string, unknown>) =>
        t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${sam}` } });
      expect(
        (await nlp('/internal/nlp/normalise', { entities: [{ extract: 'fever' }] })).statusCode,
      ).toBe(503);
      const evaluated = await nlp('/internal/nlp/evaluate', { text: 'I have a fever' });
      expect(evaluated.statusCode).toBe(200);
      // Still logged once, however many requests met the failure.
      expect(lines.filter((l) => l.msg.startsWith('concept search: building it'))).toHaveLength(1);
    } finally {
      await t.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 300_000);
});
