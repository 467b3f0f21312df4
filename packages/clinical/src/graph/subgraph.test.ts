import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KbItems } from '../kb/format.ts';
import { KnowledgeBase } from '../kb/format.ts';
import { SHIPPED_KB_PATH } from '../testing/sources.ts';
import type { ModelName } from './subgraph.ts';
import {
  conditionSubgraph,
  isModelName,
  listModel,
  listRelationships,
  MODEL_NAMES,
  VERTEX_CLASSES,
  vertexClassOf,
} from './subgraph.ts';

describe('knowledge-graph queries over the shipped KB', () => {
  let items: KbItems;
  beforeAll(() => {
    items = KnowledgeBase.parse(JSON.parse(readFileSync(SHIPPED_KB_PATH, 'utf8'))).items;
  });

  it.each<[ModelName, number, string]>([
    ['conditions', 60, 'LD:dvt'],
    ['body-systems', 10, 'LD:system/cardiovascular'],
    ['anatomical-locations', 20, 'LD:location/lower-limb'],
    ['pathological-processes', 5, 'LD:process/thrombosis'],
  ])('lists the %s model sorted by display', (model, atLeast, bid) => {
    const list = listModel(items, model);
    expect(list.length).toBeGreaterThanOrEqual(atLeast);
    expect(list.map((i) => i.bid)).toContain(bid);
    const displays = list.map((i) => i.display);
    expect(displays).toEqual([...displays].sort((a, b) => a.localeCompare(b)));
    expect(Object.keys(list[0] ?? {})).toEqual(['bid', 'display']);
  });

  it('knows its model names', () => {
    expect(MODEL_NAMES.every(isModelName)).toBe(true);
    expect(isModelName('medications')).toBe(false);
  });

  it("draws a condition's neighbourhood with every vertex class", () => {
    const graph = conditionSubgraph(items, 'LD:dvt');
    expect(graph).toBeDefined();
    const vertex = (bid: string) => graph?.vertexes.find((v) => v.bid === bid);
    expect(vertex('LD:dvt')).toEqual({
      bid: 'LD:dvt',
      class: 'condition',
      display: 'deep vein thrombosis',
    });
    expect(vertex('LD:calf-pain')?.class).toBe('observation');
    expect(vertex('LD:immobility')?.class).toBe('epidemiologicalFactor');
    expect(vertex('LD:system/cardiovascular')?.class).toBe('bodySystem');
    expect(vertex('LD:location/lower-limb')?.class).toBe('anatomicalLocation');
    expect(vertex('LD:process/thrombosis')?.class).toBe('pathologicalProcess');
    expect(vertex('LD:pulmonary-embolism')?.class).toBe('condition');
    expect(vertex('LD:q/calf')).toMatchObject({
      class: 'question',
      content: 'Is one of your legs swollen or painful in the calf?',
    });
    expect(graph?.edges).toContainEqual({
      bid: 'LD:dvt>calf-pain',
      from: 'LD:dvt',
      to: 'LD:calf-pain',
      rel: 'suggests',
      class: 'Positive',
      weight: 0.85,
    });
    expect(graph?.edges).toContainEqual(
      expect.objectContaining({
        from: 'LD:dvt',
        to: 'LD:pulmonary-embolism',
        rel: 'complication',
        class: 'emergent',
      }),
    );
    expect(graph?.edges).toContainEqual(
      expect.objectContaining({ from: 'LD:q/calf', to: 'LD:calf-pain', rel: 'asks about' }),
    );
    expect(vertex('LD:apixaban')).toEqual({
      bid: 'LD:apixaban',
      class: 'medication',
      display: 'apixaban',
    });
    expect(graph?.edges).toContainEqual({
      bid: 'LD:dvt+apixaban',
      from: 'LD:dvt',
      to: 'LD:apixaban',
      rel: 'treated with',
      class: 'medication',
      weight: 1,
    });
    // Every edge joins two vertexes of the graph, and edge ids are unique.
    const ids = new Set(graph?.vertexes.map((v) => v.bid));
    expect(graph?.edges.every((e) => ids.has(e.from) && ids.has(e.to))).toBe(true);
    expect(new Set(graph?.edges.map((e) => e.bid)).size).toBe(graph?.edges.length);
  });

  it('keeps only the requested vertex classes (and the condition itself)', () => {
    const graph = conditionSubgraph(items, 'LD:dvt', ['observation']);
    expect(new Set(graph?.vertexes.map((v) => v.class))).toEqual(
      new Set(['condition', 'observation']),
    );
    expect(graph?.edges.every((e) => e.rel === 'suggests' || e.rel === 'argues against')).toBe(
      true,
    );
    expect(conditionSubgraph(items, 'LD:dvt', [])?.vertexes.map((v) => v.bid)).toEqual(['LD:dvt']);
  });

  it('marks Negative relationships', () => {
    const graph = conditionSubgraph(items, 'LD:strep-throat', VERTEX_CLASSES);
    expect(graph?.edges).toContainEqual(
      expect.objectContaining({ to: 'LD:cough', rel: 'argues against', class: 'Negative' }),
    );
  });

  it('gives undefined for an unknown id or a concept that is no condition', () => {
    expect(conditionSubgraph(items, 'LD:nothing')).toBeUndefined();
    expect(conditionSubgraph(items, 'LD:fever')).toBeUndefined();
  });

  it('lists relationships, with metadata when asked', () => {
    const plain = listRelationships(items);
    const rich = listRelationships(items, true);
    expect(plain.length).toBe(items.relationships.length);
    expect(plain[0]).toEqual({
      bid: items.relationships[0]?.id,
      from: items.relationships[0]?.from,
      to: items.relationships[0]?.to,
    });
    expect(rich.find((r) => r.bid === 'LD:dvt>calf-pain')).toEqual({
      bid: 'LD:dvt>calf-pain',
      from: 'LD:dvt',
      to: 'LD:calf-pain',
      fromDisplay: 'deep vein thrombosis',
      toDisplay: 'calf pain',
      correlation: 'Positive',
      weight: 0.85,
      basis: 'clinician-authored: typical presentation',
    });
  });
});

describe('vertexClassOf', () => {
  it.each([
    ['sign', 'observation'],
    ['symptom', 'observation'],
    ['observation', 'observation'],
    ['condition', 'condition'],
    ['epidemiologicalFactor', 'epidemiologicalFactor'],
  ] as const)('%s → %s', (cls, vertexClass) => {
    expect(vertexClassOf(cls)).toBe(vertexClass);
  });
});
