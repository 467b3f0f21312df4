import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildKbText } from '../../../../data/kb/build.ts';
import { hierarchyProblems } from '../../../../data/kb/compile.ts';
import { createConceptIndex } from '../search/concept-search.ts';
import { SHIPPED_KB_PATH } from '../testing/sources.ts';
import type { KnowledgeBase as Kb } from './format.ts';
import { FORMAT_VERSION, KnowledgeBase, OBSERVATION_CLASSES } from './format.ts';
import { checkIntegrity } from './integrity.ts';

describe('the knowledge base shipped in data/kb', () => {
  let kb: Kb;
  const observationClasses = new Set<string>(['sign', 'symptom', 'observation']);

  beforeAll(() => {
    const parsed = KnowledgeBase.safeParse(JSON.parse(readFileSync(SHIPPED_KB_PATH, 'utf8')));
    if (!parsed.success) {
      throw new Error(`data/kb/kb.json does not match the format:\n${parsed.error.message}`);
    }
    kb = parsed.data;
  });

  it('is written in the current format', () => {
    expect(kb.formatVersion).toBe(FORMAT_VERSION);
    expect(kb.kbVersion).toMatch(/^\d{4}\.\d+\.\d+$/);
  });

  it('has unique ids and every reference points at a concept of the right class', () => {
    expect(checkIntegrity(kb.items)).toEqual([]);
  });

  // Building and formatting 1 MB of JSON takes a few seconds on a busy machine.
  it('is what data/kb/source builds (npm run kb:build)', { timeout: 60_000 }, async () => {
    expect(readFileSync(SHIPPED_KB_PATH, 'utf8')).toBe(await buildKbText());
  });

  it('says which observations are kinds of which (abdominal pain above its places), no cycles', () => {
    const byId = new Map(kb.items.concepts.map((c) => [c.id, c]));
    for (const narrow of [
      'LD:rlq-pain',
      'LD:ruq-pain',
      'LD:epigastric-pain',
      'LD:suprapubic-pain',
    ]) {
      expect(byId.get(narrow)?.parents, narrow).toEqual(['LD:abdominal-pain']);
    }
    expect(byId.get('LD:crushing-chest-pain')?.parents).toEqual(['LD:chest-pain']);
    expect(byId.get('LD:thunderclap-headache')?.parents).toEqual(['LD:sudden-headache']);
    const withParents = kb.items.concepts.filter((c) => c.parents.length > 0);
    expect(withParents.length).toBeGreaterThanOrEqual(100);
    for (const c of withParents) {
      expect(observationClasses.has(c.class), c.id).toBe(true);
      for (const parent of c.parents) {
        expect(observationClasses.has(byId.get(parent)?.class ?? ''), `${c.id} → ${parent}`).toBe(
          true,
        );
      }
    }
  });

  it('refuses a hierarchy naming an unknown observation or going round in a circle', () => {
    const observations = [
      { id: 'pain', name: 'pain', cls: 'symptom' as const, aka: [] },
      { id: 'ache', name: 'ache', cls: 'symptom' as const, aka: [] },
    ];
    expect(hierarchyProblems(observations, { ache: ['pain'] })).toEqual([]);
    expect(hierarchyProblems(observations, { ache: ['twinge'] })).toEqual([
      "broader observations: 'twinge' (under 'ache') is not an observation",
    ]);
    expect(hierarchyProblems(observations, { ache: ['pain'], pain: ['ache'] })).toEqual([
      'broader observations: a cycle ache → pain → ache',
    ]);
  });

  it('covers at least 150 conditions and 600 observations with lay aliases', () => {
    const conditions = kb.items.concepts.filter((c) => c.class === 'condition');
    const observations = kb.items.concepts.filter(
      (c) => observationClasses.has(c.class) || c.class === 'epidemiologicalFactor',
    );
    const counts = {
      conditions: conditions.length,
      observations: observations.length,
      withAliases: observations.filter((o) => o.aliases.length > 0).length,
      withCui: kb.items.concepts.filter((c) => c.cui !== undefined).length,
      relationships: kb.items.relationships.length,
      complications: kb.items.complications.length,
      questions: kb.items.questions.length,
    };
    console.log(
      Object.entries(counts)
        .map(([k, v]) => `kb.${k}: ${v}`)
        .join('\n'),
    );
    expect(counts.conditions).toBeGreaterThanOrEqual(150);
    expect(counts.observations).toBeGreaterThanOrEqual(600);
    expect(counts.withAliases).toBeGreaterThanOrEqual(600);
    // Lay words patients type, as the issue names them.
    for (const [alias, id] of [
      ['tummy ache', 'LD:abdominal-pain'],
      ['throwing up', 'LD:vomiting'],
      ["can't catch my breath", 'LD:shortness-of-breath'],
    ]) {
      expect(kb.items.concepts.find((c) => c.id === id)?.aliases, alias).toContain(alias);
    }
  });

  it('gives every condition an acuity, a prevalence, a body system and at least four weighted observations with a basis', () => {
    for (const condition of kb.items.concepts.filter((c) => c.class === 'condition')) {
      const edges = kb.items.relationships.filter((r) => r.from === condition.id);
      expect(condition.acuity, condition.id).toBeDefined();
      expect(condition.prevalence, condition.id).toBeDefined();
      expect(condition.bodySystems.length, condition.id).toBeGreaterThan(0);
      expect(edges.length, condition.id).toBeGreaterThanOrEqual(4);
      expect(
        edges.every((r) => r.weight !== undefined && r.basis.length > 0),
        condition.id,
      ).toBe(true);
    }
  });

  it('lists the medications commonly used for many conditions, every medication used, with its basis', () => {
    const treatments = kb.items.treatments ?? [];
    const medications = kb.items.concepts.filter((c) => c.class === 'medication');
    const treated = new Set(treatments.map((t) => t.condition));
    console.log(
      `kb.medications: ${medications.length}\nkb.treatments: ${treatments.length} (${treated.size} conditions)`,
    );
    expect(treated.size).toBeGreaterThanOrEqual(80);
    expect(medications.every((m) => treatments.some((t) => t.medication === m.id))).toBe(true);
    expect(treatments.every((t) => t.basis.length > 0 && t.provenance.length > 0)).toBe(true);
    expect(treatments.filter((t) => t.condition === 'LD:uti').map((t) => t.medication)).toEqual([
      'LD:nitrofurantoin',
      'LD:trimethoprim',
    ]);
    // US names are aliases: concept search finds paracetamol as acetaminophen.
    expect(medications.find((m) => m.id === 'LD:paracetamol')?.aliases).toContain('acetaminophen');
  });

  it('gives most conditions an anatomical location and a pathological process', () => {
    const conditions = kb.items.concepts.filter((c) => c.class === 'condition');
    const located = conditions.filter((c) => c.anatomicalLocations.length > 0).length;
    const processed = conditions.filter((c) => c.pathologicalProcesses.length > 0).length;
    expect(located / conditions.length).toBeGreaterThan(0.8);
    expect(processed / conditions.length).toBeGreaterThan(0.9);
  });

  it('records provenance on every item, and cites the open ontology a fact comes from', () => {
    const all = [
      ...kb.items.concepts,
      ...kb.items.relationships,
      ...kb.items.complications,
      ...kb.items.questions,
    ];
    expect(all.every((item) => item.provenance.length > 0)).toBe(true);
    const cited = (source: string) =>
      kb.items.concepts.filter((c) => c.provenance.some((p) => p.source === source));
    expect(cited('Human Disease Ontology').length).toBeGreaterThanOrEqual(100);
    expect(cited('Symptom Ontology').length).toBeGreaterThanOrEqual(100);
    // A linked concept carries the ontology's id as a code (and its cross-references).
    const pneumonia = kb.items.concepts.find((c) => c.id === 'LD:pneumonia');
    expect(pneumonia?.provenance).toContainEqual({
      source: 'Human Disease Ontology',
      reference: 'DOID:552',
    });
    expect(pneumonia?.codes).toContainEqual({ system: 'DOID', code: 'DOID:552' });
    expect(pneumonia?.codes).toContainEqual({ system: 'SNOMEDCT_US', code: '266391003' });
    expect(
      kb.items.concepts.filter((c) => c.codes.some((code) => code.system === 'ICD10CM')).length,
    ).toBeGreaterThanOrEqual(100);
    const stated = kb.items.relationships.filter((r) =>
      r.provenance.some((p) => p.source === 'Human Disease Ontology disease-symptom'),
    );
    expect(stated.length).toBeGreaterThan(30);
  });

  it('records a CUI as a UMLS code too, and only in the C + 7 digits form', () => {
    for (const concept of kb.items.concepts.filter((c) => c.cui !== undefined)) {
      expect(concept.codes, concept.id).toContainEqual({ system: 'UMLS', code: concept.cui });
    }
    expect(kb.items.concepts.find((c) => c.id === 'LD:asthma')?.cui).toBe('C0004096');
  });

  it('says what argues against a condition as well as for it', () => {
    const negatives = kb.items.relationships.filter((r) => r.correlation === 'Negative');
    expect(negatives.length).toBeGreaterThan(10);
    expect(negatives).toContainEqual(
      expect.objectContaining({ from: 'LD:strep-throat', to: 'LD:cough' }),
    );
  });

  it('names emergent complications for conditions that can turn serious', () => {
    const emergent = kb.items.complications.filter((c) => c.acuity === 'emergent');
    expect(new Set(emergent.map((c) => c.condition)).size).toBeGreaterThanOrEqual(30);
    expect(kb.items.complications.some((c) => c.acuity === 'urgent')).toBe(true);
    expect(kb.items.complications.every((c) => c.question?.endsWith('?'))).toBe(true);
    expect(kb.items.complications).toContainEqual(
      expect.objectContaining({
        condition: 'LD:dvt',
        concept: 'LD:pulmonary-embolism',
        acuity: 'emergent',
      }),
    );
  });

  it('ties its questions to observations', () => {
    expect(kb.items.questions.length).toBeGreaterThanOrEqual(10);
    const observationIds = new Set(
      kb.items.concepts
        .filter((c) => (OBSERVATION_CLASSES as readonly string[]).includes(c.class))
        .map((c) => c.id),
    );
    for (const question of kb.items.questions) {
      expect(
        question.observations.every((o) => observationIds.has(o)),
        question.id,
      ).toBe(true);
    }
  });

  it.each([
    ['tummy ache', 'LD:abdominal-pain'],
    ['diarhea', 'LD:diarrhea'],
    ['burning when I pee', 'LD:dysuria'],
    ['heart atack', 'LD:heart-attack'],
    ['short of breth', 'LD:shortness-of-breath'],
    ['hay fever', 'LD:allergic-rhinitis'],
    ['pins and needles', 'LD:tingling'],
    ['glandular fever', 'LD:glandular-fever'],
  ])('finds %s as %s', (query, id) => {
    const index = createConceptIndex(kb.items.concepts);
    expect(index.search(query, { limit: 1 })[0]?.conceptId).toBe(id);
  });
});
