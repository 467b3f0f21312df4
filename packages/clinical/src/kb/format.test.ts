import { describe, expect, it } from 'vitest';
import { Concept, KnowledgeBase, Relationship, weightValue } from './format.ts';

const provenance = [{ source: 'test', reference: 'x' }];

describe('knowledge-base format', () => {
  it('fills the optional lists of a concept with empty arrays', () => {
    const concept = Concept.parse({
      id: 'LD:cough',
      canonicalName: 'cough',
      class: 'symptom',
      provenance,
    });
    expect(concept).toMatchObject({ aliases: [], parents: [], codes: [], bodySystems: [] });
  });

  it.each([
    ['an id without a prefix', { id: 'cough' }],
    ['a malformed CUI', { cui: 'C123' }],
    ['an unknown class', { class: 'feeling' }],
    ['an acuity on a symptom', { acuity: 'urgent' }],
    ['no provenance', { provenance: [] }],
    ['an empty alias', { aliases: [' '] }],
  ])('rejects a concept with %s', (_, change) => {
    const base = { id: 'LD:cough', canonicalName: 'cough', class: 'symptom', provenance };
    expect(Concept.safeParse({ ...base, ...change }).success).toBe(false);
  });

  it('accepts an acuity on a condition', () => {
    const parsed = Concept.safeParse({
      id: 'LD:appendicitis',
      canonicalName: 'appendicitis',
      class: 'condition',
      acuity: 'emergent',
      provenance,
    });
    expect(parsed.success).toBe(true);
  });

  it('takes a relationship weight as a level or as a likelihood in (0, 1]', () => {
    const edge = { id: 'e', from: 'LD:a', to: 'LD:b', basis: 'test' };
    expect(Relationship.parse({ ...edge, weight: 'High' }).correlation).toBe('Positive');
    expect(Relationship.parse({ ...edge, weight: 0.4 }).weight).toBe(0.4);
    expect(Relationship.safeParse({ ...edge, weight: 1.5 }).success).toBe(false);
    expect(Relationship.safeParse({ ...edge, weight: 'Huge' }).success).toBe(false);
    expect(Relationship.safeParse({ ...edge, basis: '' }).success).toBe(false);
  });

  it('reads any minor version of format 1 and refuses format 2', () => {
    const kb = { kbVersion: 'test', items: {} };
    expect(KnowledgeBase.safeParse({ ...kb, formatVersion: '1.0' }).success).toBe(true);
    expect(KnowledgeBase.safeParse({ ...kb, formatVersion: '1.7' }).success).toBe(true);
    expect(KnowledgeBase.safeParse({ ...kb, formatVersion: '2.0' }).success).toBe(false);
    expect(KnowledgeBase.safeParse({ ...kb, formatVersion: '1' }).success).toBe(false);
  });

  it('orders weight levels Low < Medium < High and treats a missing weight as Low', () => {
    expect(weightValue('Low')).toBeLessThan(weightValue('Medium'));
    expect(weightValue('Medium')).toBeLessThan(weightValue('High'));
    expect(weightValue(undefined)).toBe(weightValue('Low'));
    expect(weightValue(0.9)).toBe(0.9);
  });
});
