import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKnowledgeBase } from '../kb/integrity.ts';
import { createRecogniser } from '../nlp/recognise.ts';
import { redFlagObservations, redFlagsIn } from './red-flags.ts';

const kb = loadKnowledgeBase(
  JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../../../data/kb/kb.json'), 'utf8'),
  ) as unknown,
);
const recogniser = createRecogniser(kb.items.concepts);
const flagged = redFlagObservations(kb.items);
const flags = (text: string) => redFlagsIn(text, recogniser, flagged).map((f) => f.observation);

describe('red flags in a patient message (shipped knowledge base)', () => {
  it('flags chest pain and one-sided weakness, with the emergent conditions behind them', () => {
    expect(flags('Now I have chest pain and arm weakness.')).toEqual([
      'chest pain',
      'weakness on one side of the body',
    ]);
    const [chest] = redFlagsIn('I have chest pain', recogniser, flagged);
    expect(chest?.conditions).toContain('myocardial infarction');
  });

  it('does not flag ordinary complaints, denials, the past or relatives', () => {
    expect(flags('I have a headache and a sore throat.')).toEqual([]);
    expect(flags('I have a fever and a cough.')).toEqual([]);
    expect(flags('No chest pain at all.')).toEqual([]);
    expect(flags('My father had chest pain.')).toEqual([]);
  });
});
