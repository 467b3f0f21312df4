import { describe, expect, it } from 'vitest';
import { readDoseFrequency } from './medication.ts';

/** Dose and frequency after every occurrence of the given names. */
function read(text: string, ...names: string[]) {
  const spans = names.map((name) => {
    const start = text.indexOf(name);
    return { start, end: start + name.length };
  });
  return readDoseFrequency(text, spans, text.length);
}

describe('readDoseFrequency', () => {
  it.each([
    ['ibuprofen 400 mg twice a day', { dose: '400 mg', frequency: 'twice a day' }],
    [
      'ibuprofen 400mg three times a day for my knee',
      { dose: '400mg', frequency: 'three times a day' },
    ],
    ['ibuprofen 200mg every 4 hours', { dose: '200mg', frequency: 'every 4 hours' }],
    ['ibuprofen 2 puffs when needed', { dose: '2 puffs', frequency: 'when needed' }],
    ['ibuprofen 100 micrograms', { dose: '100 micrograms' }],
    ['ibuprofen twice daily', { frequency: 'twice daily' }],
    ['ibuprofen 10mg daily', { dose: '10mg', frequency: 'daily' }],
    ['ibuprofen at night', { frequency: 'at night' }],
    ['ibuprofen for my back', {}],
    ['ibuprofen 3 days ago', {}],
  ])('%s', (text, expected) => {
    expect(read(text, 'ibuprofen')).toEqual([expected]);
  });

  it('gives a list of medicines the frequency that follows the list', () => {
    expect(read('I take metformin and ramipril every morning', 'metformin', 'ramipril')).toEqual([
      { frequency: 'every morning' },
      { frequency: 'every morning' },
    ]);
  });

  it("does not give one medicine's dose to another", () => {
    expect(read('metformin and ramipril 5mg', 'metformin', 'ramipril')).toEqual([
      {},
      { dose: '5mg' },
    ]);
  });
});
