import { describe, expect, it } from 'vitest';
import type { AcuityInput } from './acuity.ts';
import { acuityRing, differentialAcuity } from './acuity.ts';

const entry = (acuity: string, ...complications: [string | undefined, string][]): AcuityInput => ({
  acuity,
  complications: complications.map(([response, a]) => ({ response, acuity: a })),
});

describe('differentialAcuity (spec 3 §4)', () => {
  it.each<[string, AcuityInput[], string | undefined]>([
    ['empty differential', [], undefined],
    ['top entry acuity with no complications', [entry('other')], 'other'],
    ['emergent stays emergent', [entry('emergent', ['deny', 'urgent'])], 'emergent'],
    [
      'endorsed emergent complication raises other',
      [entry('other', ['endorse', 'emergent'])],
      'emergent',
    ],
    [
      'endorsed emergent complication raises urgent',
      [entry('urgent', ['endorse', 'emergent'])],
      'emergent',
    ],
    [
      'endorsed urgent complication raises other',
      [entry('other', ['endorse', 'urgent'])],
      'urgent',
    ],
    [
      'emergent beats urgent among endorsed',
      [entry('other', ['endorse', 'urgent'], ['endorse', 'emergent'])],
      'emergent',
    ],
    ['denied complication does not raise', [entry('other', ['deny', 'emergent'])], 'other'],
    ['unsure complication does not raise', [entry('other', ['unsure', 'emergent'])], 'other'],
    ['unanswered complication does not raise', [entry('other', [undefined, 'emergent'])], 'other'],
    ['endorsed other complication keeps acuity', [entry('urgent', ['endorse', 'other'])], 'urgent'],
    [
      'only the top entry counts',
      [entry('other'), entry('emergent', ['endorse', 'emergent'])],
      'other',
    ],
  ])('%s', (_, entries, expected) => {
    expect(differentialAcuity(entries)).toBe(expected);
  });
});

describe('acuityRing', () => {
  it.each([
    ['emergent', 100],
    ['urgent', 60],
    ['other', 30],
    [undefined, 30],
    ['unknown', 30],
  ])('%s → %i', (acuity, ring) => {
    expect(acuityRing(acuity)).toBe(ring);
  });
});
