// Issue 22: a large terminology is indexed in the background; the server answers meanwhile.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../platform/config.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { BACKGROUND_INDEX_CONCEPTS } from './knowledge.ts';

const SYLLABLES = ['ab', 'car', 'dia', 'fib', 'hep', 'itis', 'neu', 'pho', 'ren', 'thy', 'ur'];

/** The shipped knowledge base grown by `count` generated concepts (distinct two-word names). */
function largeKnowledgeBase(count: number): unknown {
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

  it('answers /healthz while concept search is still being indexed, then searches the whole index', async () => {
    const count = BACKGROUND_INDEX_CONCEPTS + 20_000;
    const file = path.join(folder, 'large-kb.json');
    writeFileSync(file, JSON.stringify(largeKnowledgeBase(count)));
    t = await startTestApp({ listen: true, env: { KB_PATH: file } });

    // First, the server is up while the index is built in steps between other work. Meg signs
    // in and types a generated concept's name: her search waits for the index, nothing else does.
    let built = false;
    const ready = t.app.knowledge.index.ready.then(() => {
      built = true;
    });
    const last = count - 1;
    const name = (t.app.knowledge.byId.get(`GEN:${last}`) as { canonicalName: string })
      .canonicalName;
    const typeahead = tokenForRoles(t, 'meg@example.test', ['medical']).then(({ token }) =>
      fetch(`${t.baseUrl}/internal/utilities/typeahead?t=${encodeURIComponent(name)}`, {
        headers: { authorization: `Bearer ${token}` },
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
  }, 300_000);
});
