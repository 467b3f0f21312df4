import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAY_PHRASE_SOURCE, withAliasSources } from '../../../../data/kb/aliases.ts';
import { importObo, parseObo } from '../import/obo.ts';
import { HAVE_SOURCES, readSource, SHIPPED_KB_PATH, SOURCES_DIR } from '../testing/sources.ts';
import type { Concept, KnowledgeBase as Kb } from './format.ts';
import { KnowledgeBase } from './format.ts';
import { parsePhraseRules } from './phrase-rules.ts';

const concept = (id: string, canonicalName: string, aliases: string[] = []): Concept => ({
  id,
  canonicalName,
  aliases,
  class: 'symptom',
  parents: [],
  bodySystems: [],
  anatomicalLocations: [],
  pathologicalProcesses: [],
  codes: [],
  provenance: [{ source: 'Loopdesk authored', reference: 'general medical knowledge' }],
});

describe('aliases with their source', () => {
  it('adds ontology names and phrase-rule phrases, each citing where it comes from', () => {
    const [fever, chills] = withAliasSources(
      [concept('LD:fever', 'fever', ['temperature']), concept('LD:chills', 'chills', ['shivers'])],
      {
        concepts: {
          'LD:fever': [
            {
              source: 'Symptom Ontology',
              id: 'SYMP:0000613',
              label: 'fever',
              codes: [],
              // 'shivers' is another concept's name: ambiguous, left out; 'Pyrexia' is added.
              synonyms: ['Pyrexia', 'shivers', 'T', 'fever (finding)'],
            },
          ],
        },
        relationships: {},
      },
      parsePhraseRules('fever: (boiling | burning) up'),
    );
    expect(fever?.aliases).toEqual(['temperature', 'pyrexia', 'boiling up', 'burning up']);
    expect(fever?.aliasSources).toEqual([
      { alias: 'temperature', source: 'Loopdesk authored', reference: 'general medical knowledge' },
      { alias: 'pyrexia', source: 'Symptom Ontology', reference: 'SYMP:0000613' },
      {
        alias: 'boiling up',
        source: LAY_PHRASE_SOURCE,
        reference: 'lay-phrases.txt line 1: (boiling | burning) up',
      },
      {
        alias: 'burning up',
        source: LAY_PHRASE_SOURCE,
        reference: 'lay-phrases.txt line 1: (boiling | burning) up',
      },
    ]);
    expect(chills?.aliases).toEqual(['shivers']);
  });

  it('refuses a phrase rule for a concept the KB does not have', () => {
    expect(() =>
      withAliasSources([concept('LD:fever', 'fever')], { concepts: {}, relationships: {} }, [
        ...parsePhraseRules('feverr: boiling up'),
      ]),
    ).toThrow(/line 1 LD:feverr/);
  });

  describe('in the shipped KB', () => {
    let kb: Kb;
    beforeAll(() => {
      kb = KnowledgeBase.parse(JSON.parse(readFileSync(SHIPPED_KB_PATH, 'utf8')));
    });

    it('gives every alias of every concept its source', () => {
      for (const c of kb.items.concepts) {
        const sourced = new Set((c.aliasSources ?? []).map((s) => s.alias));
        for (const alias of c.aliases) {
          expect(sourced.has(alias), `${c.id} '${alias}'`).toBe(true);
        }
      }
    });

    it.runIf(HAVE_SOURCES)(
      `carries the Symptom Ontology's exact synonyms of the linked symptoms (read from ${SOURCES_DIR})`,
      () => {
        const symp = importObo(parseObo(readSource('symptom-ontology.symp.obo')), {
          source: 'Symptom Ontology',
          conceptClass: 'symptom',
          synonymScopes: ['EXACT'],
        }).concepts;
        const byId = new Map(symp.map((c) => [c.id, c]));
        let imported = 0;
        for (const c of kb.items.concepts) {
          for (const s of c.aliasSources ?? []) {
            if (s.source !== 'Symptom Ontology') {
              continue;
            }
            const term = byId.get(s.reference);
            expect(term, s.reference).toBeDefined();
            const names = [term?.canonicalName, ...(term?.aliases ?? [])].map((n) =>
              n?.toLowerCase(),
            );
            expect(names, `${c.id} '${s.alias}'`).toContain(s.alias.toLowerCase());
            imported++;
          }
        }
        expect(imported).toBeGreaterThan(50);
      },
    );

    it.skipIf(HAVE_SOURCES)(
      `skips the open-source check: no shared/data/sources found (looked at ${SOURCES_DIR}; set LOOPDESK_SOURCES_DIR)`,
      () => {},
    );
  });
});
