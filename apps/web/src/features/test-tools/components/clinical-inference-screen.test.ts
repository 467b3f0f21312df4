import { describe, expect, it } from 'vitest';
import { EntityExtractionResult } from '@loopdesk/contracts/nlp.ts';
import { evaluation } from '../../../test/features/test-tools/fixtures.ts';
import { observationsOf } from './clinical-inference-screen.tsx';

const context = { historical: false, family: false, hypothetical: false };
const mention = (display: string, presence: 'endorse' | 'deny', extra = {}) => ({
  id: `LD:${display}`,
  extractId: display,
  start: 0,
  end: 1,
  original: display,
  display,
  class: 'symptom',
  negated: presence === 'deny',
  presence,
  context: { ...context, ...extra },
});

describe('observations offered to the differential (issue 20 #26)', () => {
  it('keeps the endorsed ones the server lists and adds the denied ones, one per name', () => {
    const result = EntityExtractionResult.parse({
      ...evaluation('fever, no cough, mother had no rash', {
        normalisedObservations: [{ id: 'LD:fever', display: 'fever' }],
      }),
      observations: [
        mention('fever', 'endorse'),
        mention('cough', 'deny'),
        mention('cough', 'deny'),
        mention('rash', 'deny', { family: true }),
      ],
    });
    expect(observationsOf(result)).toEqual([
      { id: 'LD:fever', display: 'fever', denied: false },
      { id: 'LD:cough', display: 'cough', denied: true },
    ]);
  });
});
