import { describe, expect, it } from 'vitest';
import { inBackground, runSteps } from './background.ts';
import { createRecogniser, createRecogniserInBackground } from './nlp/recognise.ts';
import { normaliseText } from './search/text.ts';
import type { Concept } from './kb/format.ts';

function* counting(to: number, fail = false): Generator<void, number, void> {
  let n = 0;
  for (let i = 0; i < to; i++) {
    n += i;
    yield;
  }
  if (fail) {
    throw new Error('the build broke');
  }
  return n;
}

const concept = (id: string, canonicalName: string, aliases: string[] = []): Concept =>
  ({
    id,
    canonicalName,
    aliases,
    class: 'symptom',
    codes: [],
    provenance: [],
    parents: [],
    bodySystems: [],
    anatomicalLocations: [],
    pathologicalProcesses: [],
  }) as unknown as Concept;

describe('builds in the background (issue 22)', () => {
  it('settles ready when the steps end, and gives the value', async () => {
    const building = inBackground(counting(1000), 1);
    await building.ready;
    expect(building.value()).toBe(runSteps(counting(1000)));
  });

  it('finishes the build at once when the value is asked for first', () => {
    const building = inBackground(counting(1000));
    expect(building.value()).toBe(499_500);
  });

  it('rejects ready with the failure (observed: no unhandled rejection), and value() throws it', async () => {
    const building = inBackground(counting(10, true), 1);
    await expect(building.ready).rejects.toThrow('the build broke');
    expect(() => building.value()).toThrow('the build broke');
  });

  it('a recogniser built in the background reads a text as the one built at once', async () => {
    const concepts = [
      concept('C1', 'Chest pain', ['pain in chest']),
      concept('C2', 'Shortness of breath', ['breathless']),
      concept('C3', 'Fever'),
    ];
    const text = 'I have had chest pian and a fevr, and I am breathless.';
    const background = createRecogniserInBackground(concepts, { sliceMs: 1 });
    await background.ready;
    expect(background.recognise(text)).toEqual(createRecogniser(concepts).recognise(text));
    expect(background.size).toBe(createRecogniser(concepts).size);
  });
});

describe('normaliseText', () => {
  it('gives plain ASCII, already normal names and other text the same as the Unicode steps', () => {
    const unicode = (text: string) =>
      text
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    for (const text of [
      'chest pain',
      'Chest  Pain',
      ' chest pain',
      'chest pain ',
      "Crohn's disease",
      'Crohn’s Disease',
      'Ménière disease',
      'COVID-19',
      'a\tb',
      '',
      '--',
    ]) {
      expect(normaliseText(text)).toBe(unicode(text));
    }
  });
});
