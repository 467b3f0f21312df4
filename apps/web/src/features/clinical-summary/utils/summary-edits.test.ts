import { describe, expect, it } from 'vitest';
import type { SummaryDocument } from '@loopdesk/contracts/summaries.ts';
import {
  addCode,
  changeCode,
  codesOfAnnotation,
  codingsOf,
  editText,
  removeCode,
  sectionTitle,
} from './summary-edits.ts';

const note: SummaryDocument = {
  sections: [
    {
      id: 'history_of_present_illness',
      content: 'Fever for two days with a sore throat.',
      annotations: [{ id: 'a1', start: 0, end: 5, code: 'C0015967' }],
    },
  ],
  codes: [
    { source: 'snomed', code: { system: 'UMLS', code: 'C0015967', value: 'fever' } },
    { source: 'snomed', code: { system: 'ICD-10', code: 'R50.9', value: 'fever' } },
  ],
};

const soreThroat = codingsOf({
  name: 'sore throat',
  canonicalName: 'sore throat',
  conceptId: 'LD:sore-throat',
  index: [],
  sources: [
    { system: 'UMLS', code: 'C0242429' },
    { system: 'ICD10CM', code: 'J02.9' },
    { system: 'MESH', code: 'D010612' },
  ],
});

describe('the reviewer’s edits of a clinical note', () => {
  it('names a section readably', () => {
    expect(sectionTitle('history_of_present_illness')).toBe('History of present illness');
  });

  it('a chosen concept brings its UMLS and ICD-10 codes, entered by hand', () => {
    expect(soreThroat.map((c) => `${c.source} ${c.code.system} ${c.code.code}`)).toEqual([
      'manual UMLS C0242429',
      'manual ICD-10 J02.9',
    ]);
  });

  it('adds a highlight with its codes, and shows a highlight’s codes of its concept', () => {
    const added = addCode(
      note,
      { sectionId: note.sections[0]!.id, start: 26, end: 37 },
      soreThroat,
    );
    const annotation = added.sections[0]!.annotations[1]!;
    expect(annotation).toMatchObject({ start: 26, end: 37, code: 'C0242429' });
    expect(codesOfAnnotation(added, annotation).map((c) => c.code.code)).toEqual([
      'C0242429',
      'J02.9',
    ]);
  });

  it('changes a highlight’s concept: the old concept’s codes go when nothing else uses them', () => {
    const changed = changeCode(note, 'a1', soreThroat);
    expect(changed.sections[0]!.annotations[0]!.code).toBe('C0242429');
    expect(changed.codes.map((c) => c.code.code)).toEqual(['C0242429', 'J02.9']);
  });

  it('removes a highlight and its concept’s codes', () => {
    expect(removeCode(note, 'a1')).toEqual({
      sections: [{ ...note.sections[0]!, annotations: [] }],
      codes: [],
    });
  });

  it('moves highlights with an edit of the text, and drops the one the edit touches', () => {
    const before = editText(
      note,
      note.sections[0]!.id,
      'Now: Fever for two days with a sore throat.',
    );
    expect(before.sections[0]!.annotations[0]).toMatchObject({ start: 5, end: 10 });
    const after = editText(note, note.sections[0]!.id, 'Fever for three days with a sore throat.');
    expect(after.sections[0]!.annotations[0]).toMatchObject({ start: 0, end: 5 });
    const touched = editText(note, note.sections[0]!.id, 'Fervor for two days with a sore throat.');
    expect(touched.sections[0]!.annotations).toEqual([]);
    expect(touched.codes).toEqual([]);
  });
});
