import { describe, expect, it } from 'vitest';
import { categoryName, highlightLabel, sentenceCase } from './labels.ts';

describe('human words: readable names in sentence case (issue 20)', () => {
  it.each([
    ['chief complaint', 'Chief complaint'],
    ['associated_sx', 'Associated sx'],
    ['  repeat__prescription ', 'Repeat prescription'],
    ['ICD-10 code', 'ICD-10 code'],
    ['', ''],
  ])('%j reads %j', (text, expected) => {
    expect(sentenceCase(text)).toBe(expected);
  });

  it("names a category by its slot's short_description, else the fixed label, else its code made readable", () => {
    const specs = [{ code: 'onset', short_description: 'when it started' }];
    expect(categoryName('onset', specs)).toBe('When it started');
    expect(categoryName('chief_complaints')).toBe('Chief complaint');
    expect(categoryName('associated_sx')).toBe('Associated symptom');
    expect(categoryName('repeat_prescription')).toBe('Repeat prescription');
    expect(categoryName('appointment_reason')).toBe('Appointment reason');
  });

  it('a boolean answer shows its presence after the name', () => {
    expect(highlightLabel({ category: 'fever', presence: 'deny' })).toBe('Fever: Deny');
    expect(highlightLabel({ category: 'sx' })).toBe('Symptom');
  });
});
