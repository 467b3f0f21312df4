import { describe, expect, it } from 'vitest';
import type { ConceptInput, KbItems } from './format.ts';
import { Concept, emptyItems } from './format.ts';
import { checkIntegrity, loadKnowledgeBase } from './integrity.ts';
import { mergeItems } from './merge.ts';

const concept = (input: Partial<ConceptInput> & Pick<ConceptInput, 'id'>): Concept =>
  Concept.parse({
    canonicalName: input.id,
    class: 'symptom',
    provenance: [{ source: 'test', reference: input.id }],
    ...input,
  });

describe('merging importer output', () => {
  it('joins the DO label file and the cross-reference file into one concept per DOID', () => {
    const labels = {
      ...emptyItems(),
      concepts: [
        concept({
          id: 'DOID:2841',
          canonicalName: 'asthma',
          class: 'condition',
          parents: ['DOID:1176'],
        }),
      ],
    };
    const xrefs = {
      ...emptyItems(),
      concepts: [
        concept({
          id: 'DOID:2841',
          canonicalName: 'Asthma',
          class: 'condition',
          cui: 'C0004096',
          codes: [{ system: 'ICD10CM', code: 'J45' }],
          provenance: [{ source: 'xref', reference: 'DOID:2841' }],
        }),
      ],
    };
    const [merged] = mergeItems(labels, xrefs).concepts;
    expect(merged).toMatchObject({
      canonicalName: 'asthma',
      cui: 'C0004096',
      aliases: [],
      parents: ['DOID:1176'],
      codes: [{ system: 'ICD10CM', code: 'J45' }],
    });
    expect(merged?.provenance).toHaveLength(2);
  });

  it('keeps a differing name from a later source as an alias', () => {
    const a = { ...emptyItems(), concepts: [concept({ id: 'X:1', canonicalName: 'diarrhea' })] };
    const b = {
      ...emptyItems(),
      concepts: [concept({ id: 'X:1', canonicalName: 'diarrhoea', aliases: ['the runs'] })],
    };
    expect(mergeItems(a, b).concepts[0]?.aliases).toEqual(['diarrhoea', 'the runs']);
  });
});

describe('referential integrity', () => {
  const items = (): KbItems => ({
    ...emptyItems(),
    concepts: [
      concept({ id: 'LD:flu', class: 'condition' }),
      concept({ id: 'LD:fever' }),
      concept({ id: 'LD:chest', class: 'anatomicalLocation' }),
    ],
    relationships: [
      {
        id: 'r1',
        from: 'LD:flu',
        to: 'LD:fever',
        correlation: 'Positive',
        basis: 't',
        provenance: [],
      },
    ],
  });

  it('finds nothing wrong in a consistent set', () => {
    expect(checkIntegrity(items())).toEqual([]);
  });

  it('reports dangling references, wrong classes and duplicate ids', () => {
    const broken = items();
    broken.concepts.push(concept({ id: 'LD:fever' }));
    broken.relationships.push(
      {
        id: 'r2',
        from: 'LD:fever',
        to: 'LD:chest',
        correlation: 'Positive',
        basis: 't',
        provenance: [],
      },
      {
        id: 'r2',
        from: 'LD:flu',
        to: 'LD:missing',
        correlation: 'Negative',
        basis: 't',
        provenance: [],
      },
    );
    expect(checkIntegrity(broken).map((p) => p.message)).toEqual([
      'duplicate concept id LD:fever',
      'duplicate relationships id r2',
      'LD:fever is a symptom',
      'LD:chest is a anatomicalLocation',
      'unknown concept LD:missing',
    ]);
  });

  it('accepts references the caller says live elsewhere', () => {
    const part = items();
    part.concepts[0] = concept({ id: 'LD:flu', class: 'condition', parents: ['DOID:4'] });
    expect(checkIntegrity(part)).toHaveLength(1);
    expect(checkIntegrity(part, new Set(['DOID:4']))).toEqual([]);
  });
});

describe('loading a knowledge base', () => {
  const doc = (items: unknown) => ({ formatVersion: '1.0', kbVersion: 't', items });

  it('returns the parsed KB with defaults filled in', () => {
    const kb = loadKnowledgeBase(
      doc({
        concepts: [
          {
            id: 'LD:x',
            canonicalName: 'x',
            class: 'symptom',
            provenance: [{ source: 's', reference: 'r' }],
          },
        ],
      }),
    );
    expect(kb.items.concepts[0]?.aliases).toEqual([]);
    expect(kb.items.relationships).toEqual([]);
  });

  it('names the field when the schema is not met', () => {
    expect(() => loadKnowledgeBase(doc({ concepts: [{ id: 'LD:x' }] }))).toThrow(
      /items\.concepts\.0\.canonicalName/,
    );
  });

  it('names the broken reference', () => {
    const bad = doc({
      relationships: [{ id: 'r', from: 'LD:a', to: 'LD:b', basis: 't' }],
    });
    expect(() => loadKnowledgeBase(bad)).toThrow('relationships[0].from: unknown concept LD:a');
  });
});
