import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { describe, expect, it } from 'vitest';
import { chooseIntent, isTargetAnnotated, type TargetContext } from './target.ts';

const e = (start: number, end: number, category: string): AnnotationEntity => ({
  start,
  end,
  extract: 'x'.repeat(end - start),
  category,
});

describe("'target annotated' (spec 1 §5, spec 2 §5)", () => {
  it.each<[string, AnnotationEntity[], TargetContext, boolean]>([
    ['an entity whose category is the slot code', [e(0, 4, 'onset')], { slotCode: 'onset' }, true],
    [
      'patient_description for the patient_description slot',
      [e(0, 4, 'patient_description')],
      { slotCode: 'patient_description' },
      true,
    ],
    [
      'current_complaint for the current_complaint slot',
      [e(0, 4, 'current_complaint')],
      { slotCode: 'current_complaint' },
      true,
    ],
    [
      'current_complaint for the chief_complaints slot',
      [e(0, 4, 'current_complaint')],
      { slotCode: 'chief_complaints' },
      true,
    ],
    [
      'chief_complaints for the current_complaint slot is not enough',
      [e(0, 4, 'chief_complaints')],
      { slotCode: 'current_complaint' },
      false,
    ],
    [
      'current_complaint for another slot is not enough',
      [e(0, 4, 'current_complaint')],
      { slotCode: 'onset' },
      false,
    ],
    [
      'a category in the derived menu',
      [e(0, 4, 'medication')],
      { slotCode: 'onset', derived: ['medication'] },
      true,
    ],
    ['an unrelated category', [e(0, 4, 'sx')], { slotCode: 'onset' }, false],
    ['no annotation', [], { slotCode: 'onset' }, false],
    [
      'one intent sharing its span with a non-intent entity',
      [e(0, 4, 'intent'), e(0, 4, 'sx')],
      { slotCode: 'onset' },
      true,
    ],
    [
      'one named intent sharing its span with a non-intent entity',
      [e(0, 4, 'refill'), e(0, 4, 'sx')],
      { slotCode: 'onset', intentCategories: ['refill'] },
      true,
    ],
    ['one intent alone', [e(0, 4, 'intent')], { slotCode: 'onset' }, false],
    [
      'one intent next to (not on) a non-intent entity',
      [e(0, 4, 'intent'), e(0, 5, 'sx')],
      { slotCode: 'onset' },
      false,
    ],
    [
      'two intents on the same span as a non-intent entity',
      [e(0, 4, 'intent'), e(0, 4, 'refill'), e(0, 4, 'sx')],
      { slotCode: 'onset', intentCategories: ['refill'] },
      false,
    ],
    [
      'the slot code annotated beside two intents (more than one intent is never valid)',
      [e(0, 4, 'onset'), e(5, 8, 'intent'), e(9, 12, 'intent')],
      { slotCode: 'onset' },
      false,
    ],
  ])('%s: %s', (_name, entities, context, expected) => {
    expect(isTargetAnnotated(entities, context)).toBe(expected);
  });
});

describe("an intent containing '+' takes priority as the chosen intent", () => {
  it.each([
    [['book', 'refill+book', 'cancel'], 'refill+book'],
    [['book', 'cancel'], 'book'],
    [['a+b', 'c+d'], 'a+b'],
    [[], undefined],
  ])('from %j the chosen intent is %s', (intents, expected) => {
    expect(chooseIntent(intents)).toBe(expected);
  });
});
