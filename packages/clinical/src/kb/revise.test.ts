import { describe, expect, it } from 'vitest';
import { Concept, KnowledgeBase, type ConceptInput } from './format.ts';
import { KbChange, applyChange, isEmptyChange, reviseKnowledgeBase } from './revise.ts';

const provenance = [{ source: 'test', reference: 'revise' }];
const concept = (input: Partial<ConceptInput> & Pick<ConceptInput, 'id' | 'class'>): Concept =>
  Concept.parse({ canonicalName: input.id, provenance, ...input });

const base = (): KnowledgeBase =>
  KnowledgeBase.parse({
    formatVersion: '1.0',
    kbVersion: '2026.1.0',
    items: {
      concepts: [
        concept({ id: 'LD:flu', class: 'condition' }),
        concept({ id: 'LD:fever', class: 'symptom' }),
        concept({ id: 'LD:cough', class: 'symptom' }),
        concept({ id: 'LD:sepsis', class: 'condition' }),
      ],
      relationships: [
        { id: 'LD:flu>fever', from: 'LD:flu', to: 'LD:fever', weight: 'High', basis: 'b' },
        { id: 'LD:flu>cough', from: 'LD:flu', to: 'LD:cough', weight: 'Low', basis: 'b' },
      ],
      complications: [
        {
          id: 'LD:flu~sepsis',
          condition: 'LD:flu',
          name: 'sepsis',
          acuity: 'emergent',
          basis: 'b',
        },
      ],
    },
  });

describe('revising a knowledge base', () => {
  it('adds, replaces and removes items as a new version, leaving the old one as it was', () => {
    const kb = base();
    const change = KbChange.parse({
      upsert: {
        concepts: [
          concept({ id: 'LD:pneumonia', class: 'condition', aliases: ['chest infection'] }),
          concept({ id: 'LD:ibuprofen', class: 'medication' }),
        ],
        relationships: [
          // Same pair as LD:flu>cough under another id: replaces it.
          { id: 'new', from: 'LD:flu', to: 'LD:cough', weight: 'Medium', basis: 'approved' },
        ],
        complications: [
          {
            id: 'LD:flu~pneumonia',
            condition: 'LD:flu',
            name: 'pneumonia',
            concept: 'LD:pneumonia',
            acuity: 'urgent',
            basis: 'approved',
          },
        ],
        treatments: [
          { id: 'LD:flu+ibuprofen', condition: 'LD:flu', medication: 'LD:ibuprofen', basis: 'x' },
        ],
      },
      remove: { relationships: ['LD:flu>fever'], complications: ['LD:flu~sepsis'] },
    });
    const next = reviseKnowledgeBase(kb, change, '2026.1.0+rev.1');
    expect(next.kbVersion).toBe('2026.1.0+rev.1');
    expect(next.items.relationships).toEqual([
      {
        id: 'new',
        from: 'LD:flu',
        to: 'LD:cough',
        correlation: 'Positive',
        weight: 'Medium',
        basis: 'approved',
        provenance: [],
      },
    ]);
    expect(next.items.complications.map((c) => c.id)).toEqual(['LD:flu~pneumonia']);
    expect(next.items.treatments?.map((t) => t.id)).toEqual(['LD:flu+ibuprofen']);
    expect(next.items.concepts.map((c) => c.id)).toContain('LD:pneumonia');
    // The old version is untouched.
    expect(kb.kbVersion).toBe('2026.1.0');
    expect(kb.items.relationships).toHaveLength(2);
    expect(kb.items.complications.map((c) => c.id)).toEqual(['LD:flu~sepsis']);
  });

  it('merges an upserted concept into the one with its id, and replays removals of missing ids as no change', () => {
    const change = KbChange.parse({
      upsert: {
        concepts: [concept({ id: 'LD:fever', class: 'symptom', aliases: ['feeling hot'] })],
      },
      remove: { relationships: ['gone-already'] },
    });
    const items = applyChange(base().items, change);
    expect(items.concepts.filter((c) => c.id === 'LD:fever')).toMatchObject([
      { aliases: ['feeling hot'] },
    ]);
    expect(items.relationships).toHaveLength(2);
    expect(items.treatments).toBeUndefined();
  });

  it('refuses a revision that points at unknown concepts or at a concept of the wrong class', () => {
    const change = KbChange.parse({
      upsert: {
        relationships: [{ id: 'r', from: 'LD:flu', to: 'LD:nowhere', basis: 'x' }],
        treatments: [{ id: 't', condition: 'LD:flu', medication: 'LD:fever', basis: 'x' }],
      },
    });
    expect(() => reviseKnowledgeBase(base(), change, 'v2')).toThrow(
      /relationships\[2\]\.to: unknown concept LD:nowhere[\s\S]*treatments\[0\]\.medication: LD:fever is a symptom/,
    );
  });

  it('knows an empty change', () => {
    expect(isEmptyChange(KbChange.parse({}))).toBe(true);
    expect(isEmptyChange(KbChange.parse({ remove: { questions: ['q'] } }))).toBe(false);
  });
});
