import { describe, expect, it } from 'vitest';
import {
  EMPTY_ANNOTATIONS,
  addManual,
  annotate,
  automatedEntities,
  canSubmit,
  checkSelection,
  draftRestorable,
  draftSet,
  entitiesIn,
  recognitionDisabled,
  removeAutomated,
  removeEntity,
  setWeight,
  stateFromSet,
  submittedSet,
  tuisOf,
} from './annotations.ts';
import { BLOCK_CHARS, blockAt, splitBlocks } from './blocks.ts';

const TEXT = 'Asthma causes wheeze and cough at night.';
const recognition = {
  entities: [
    {
      start: 0,
      end: 6,
      original: 'Asthma',
      concepts: [
        { coding: { display: 'Asthma', code: 'C0004096' }, bestMatch: true },
        { coding: { display: 'Other', code: 'C1' }, bestMatch: false },
      ],
      semanticTypes: ['Disease or Syndrome'],
    },
    // Overlaps the first: left out.
    {
      start: 3,
      end: 13,
      original: 'hma causes',
      concepts: [],
      semanticTypes: [],
    },
    {
      start: 14,
      end: 20,
      original: 'wheeze',
      concepts: [{ coding: { display: 'Wheezing', code: 'C0043144' }, bestMatch: true }],
      semanticTypes: ['Sign or Symptom'],
    },
  ],
};

describe('document annotation rules (spec 2 §4, §5)', () => {
  it('turns a recognition result into automated entities without overlaps', () => {
    const entities = automatedEntities(TEXT, recognition);
    expect(entities.map((e) => [e.data.extract, e.data.CUI, e.state])).toEqual([
      ['Asthma', 'C0004096', 'automated'],
      ['wheeze', 'C0043144', 'automated'],
    ]);
    expect(entities[0]?.data.TUI).toEqual([{ tui: 'T047', description: 'Disease or Syndrome' }]);
  });

  it('disables recognition while entities exist; unchecking removes only automated ones', () => {
    expect(recognitionDisabled(EMPTY_ANNOTATIONS)).toBe(false);
    const automated = { entities: automatedEntities(TEXT, recognition), relationships: [] };
    const { state } = addManual(automated, TEXT, 25, 30, 'Symptom');
    expect(recognitionDisabled(state)).toBe(true);
    expect(removeAutomated(state).entities.map((e) => e.data.extract)).toEqual(['cough']);
  });

  it('ignores an empty selection, trims spaces and refuses a span over an entity', () => {
    const { state } = addManual(EMPTY_ANNOTATIONS, TEXT, 14, 20, 'Sign');
    expect(checkSelection(TEXT, state.entities, 5, 5)).toEqual({ kind: 'ignored' });
    expect(checkSelection(TEXT, state.entities, 6, 7)).toEqual({ kind: 'ignored' });
    expect(checkSelection(TEXT, state.entities, 20, 31)).toEqual({
      kind: 'ok',
      start: 21,
      end: 30,
    });
    expect(checkSelection(TEXT, state.entities, 10, 16)).toEqual({ kind: 'exists' });
    expect(checkSelection(TEXT, state.entities, 14, 20)).toEqual({ kind: 'exists' });
  });

  it('annotates with a relationship row, keeps the weight and blocks submit until all are annotated', () => {
    const first = addManual(EMPTY_ANNOTATIONS, TEXT, 0, 6, 'Sign');
    const second = addManual(first.state, TEXT, 25, 30, 'Symptom');
    expect(canSubmit(second.state)).toBe(false);
    const one = annotate(second.state, {
      ...first.entity.data,
      category: 'Antecedent disease',
      CUI: 'C0004096',
    });
    expect(one.relationships).toEqual([
      { id: first.entity.data.id, entity: 'Asthma', category: 'ANTECEDENT DISEASE', weight: '' },
    ]);
    const weighted = setWeight(one, first.entity.data.id, '0.8');
    const both = annotate(weighted, { ...second.entity.data, CUI: 'C0010200' });
    expect(canSubmit(both)).toBe(true);
    expect(both.relationships.map((r) => [r.entity, r.weight])).toEqual([
      ['Asthma', '0.8'],
      ['cough', ''],
    ]);
    const sent = submittedSet(both, 'http://portal/jobs/authoring-tasks/k');
    expect(sent.provenance.system).toBe('decoded-portal');
    expect(sent.entities[0]).not.toHaveProperty('state');
    expect(removeEntity(both, first.entity.data.id).relationships).toHaveLength(1);
  });

  it('keeps unfinished entities with their state in a draft, and reads it back', () => {
    const { state } = addManual(EMPTY_ANNOTATIONS, TEXT, 25, 30, 'Symptom');
    const draft = draftSet(state, 'here');
    expect(draft.entities[0]).toMatchObject({ state: 'manual', category: 'Symptom' });
    const back = stateFromSet(TEXT, { entities: draft.entities, relationships: [] }, 'annotated');
    expect(back.entities.map((e) => [e.data.extract, e.state])).toEqual([['cough', 'manual']]);
    expect(draftRestorable(draft)).toBe(true);
    expect(draftRestorable({ provenance: { system: 'other-tool' } })).toBe(false);
  });

  it('finds the entities of a range by binary search', () => {
    const entities = automatedEntities(TEXT, recognition);
    expect(entitiesIn(entities, 7, 14)).toEqual([]);
    expect(entitiesIn(entities, 5, 15).map((e) => e.data.extract)).toEqual(['Asthma', 'wheeze']);
    expect(tuisOf(['Finding', 'Finding', 'Unknown'])).toEqual([
      { tui: 'T033', description: 'Finding' },
      { tui: '', description: 'Unknown' },
    ]);
  });
});

describe('rows of the virtual text', () => {
  it('cuts at lines and long lines at a space, covering the text exactly', () => {
    const text = `short line\n${'word '.repeat(400)}\nend`;
    const blocks = splitBlocks(text);
    expect(blocks[0]).toEqual({ start: 0, end: 11 });
    expect(blocks.every((b) => b.end - b.start <= BLOCK_CHARS + 1)).toBe(true);
    expect(blocks.map((b) => text.slice(b.start, b.end)).join('')).toBe(text);
    expect(blockAt(blocks, 0)).toBe(0);
    expect(blockAt(blocks, text.length)).toBe(blocks.length - 1);
    expect(blockAt(blocks, 11)).toBe(1);
  });
});
