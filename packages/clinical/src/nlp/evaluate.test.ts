import { describe, expect, it } from 'vitest';
import type { ConceptClass } from '../kb/format.ts';
import { Concept } from '../kb/format.ts';
import { evaluateText, toAutomatedRecognition, toRecognitionState } from './evaluate.ts';
import { createRecogniser } from './recognise.ts';
import {
  AutomatedRecognitionResult,
  EntityExtractionResult,
  EntityRecognitionState,
} from './schemas.ts';

const make = (
  id: string,
  canonicalName: string,
  cls: ConceptClass,
  aliases: string[] = [],
  cui?: string,
) =>
  Concept.parse({
    id,
    canonicalName,
    aliases,
    class: cls,
    ...(cui ? { cui, codes: [{ system: 'UMLS', code: cui }] } : {}),
    provenance: [{ source: 'test', reference: id }],
  });

const recogniser = createRecogniser([
  make('T:fever', 'fever', 'symptom', ['temperature'], 'C0015967'),
  make('T:cough', 'cough', 'symptom', ['coughing']),
  make('T:flu', 'influenza', 'condition', ['flu']),
  make('T:hives-sign', 'hives', 'sign'),
  make('T:urticaria', 'urticaria', 'condition', ['hives']),
]);

const TEXT = 'Flu for 3 days, no fever but coughing. My mum had hives.';

describe('evaluateText', () => {
  const result = evaluateText(TEXT, recogniser);

  it('matches the evaluation call schema', () => {
    expect(EntityExtractionResult.parse(result)).toEqual(result);
  });

  it('lists every span in text order with an extract id', () => {
    expect(
      result.entities.map((e) => [e.extractId, e.id, e.original, e.category, e.presence]),
    ).toEqual([
      ['x1', 'T:flu', 'Flu', 'condition', 'endorse'],
      ['x2', 'onset', 'for 3 days', 'onset', 'endorse'],
      ['x3', 'T:fever', 'fever', 'symptom', 'deny'],
      ['x4', 'T:cough', 'coughing', 'symptom', 'endorse'],
      ['x5', 'T:hives-sign', 'hives', 'sign', 'endorse'],
    ]);
    for (const e of result.entities) {
      expect(TEXT.slice(e.start, e.end)).toBe(e.original);
    }
    expect(result.entities[1]?.onset).toEqual({ relation: 'duration', amount: 3, unit: 'day' });
    expect(result.entities[4]?.normalised).toEqual([
      { id: 'T:hives-sign', display: 'hives', class: 'sign', bestMatch: true },
      { id: 'T:urticaria', display: 'urticaria', class: 'condition', bestMatch: false },
    ]);
    expect(result.entities[4]?.context.family).toBe(true);
  });

  it('splits phrases at commas and "but", holding their entities', () => {
    expect(result.phrases.map((p) => [p.id, p.original, p.entityIds])).toEqual([
      ['p1', 'Flu for 3 days', ['x1', 'x2']],
      ['p2', 'no fever', ['x3']],
      ['p3', 'but coughing', ['x4']],
      ['p4', 'My mum had hives', ['x5']],
    ]);
  });

  it('separates conditions from observations', () => {
    expect(result.conditions.map((c) => [c.id, c.extractId])).toEqual([['T:flu', 'x1']]);
    expect(result.observations.map((o) => o.id)).toEqual(['T:fever', 'T:cough', 'T:hives-sign']);
  });

  it('gives empty lists for text with nothing in it', () => {
    expect(evaluateText('hello there', recogniser)).toMatchObject({
      entities: [],
      conditions: [],
      observations: [],
      phrases: [{ original: 'hello there', entityIds: [] }],
    });
  });
});

describe('toRecognitionState', () => {
  it('interleaves plain text and spans, and offers endorsed own observations once', () => {
    const state = toRecognitionState(
      evaluateText('cough, coughing and no fever; mum has a cough', recogniser),
    );
    expect(EntityRecognitionState.parse(state)).toEqual(state);
    expect(state.resolvedEntities.slice(0, 3)).toEqual([
      { original: 'cough', normalised: [{ id: 'T:cough', display: 'cough' }] },
      ', ',
      { original: 'coughing', normalised: [{ id: 'T:cough', display: 'cough' }] },
    ]);
    expect(state.normalisedObservations).toEqual([{ id: 'T:cough', display: 'cough' }]);
    expect(state.resolvedPhrases[0]).toEqual({
      original: 'cough',
      normalised: [{ id: 'T:cough', display: 'cough' }],
    });
  });
});

describe('toAutomatedRecognition', () => {
  it('codes with the CUI when known, else the id, and names semantic types', () => {
    const result = evaluateText('temperature and hives since monday', recogniser);
    const automated = toAutomatedRecognition(result, recogniser);
    expect(AutomatedRecognitionResult.parse(automated)).toEqual(automated);
    expect(automated.entities).toEqual([
      {
        start: 0,
        end: 11,
        original: 'temperature',
        concepts: [
          { coding: { display: 'fever', code: 'C0015967', system: 'UMLS' }, bestMatch: true },
        ],
        semanticTypes: ['Sign or Symptom'],
      },
      {
        start: 16,
        end: 21,
        original: 'hives',
        concepts: [
          { coding: { display: 'hives', code: 'T:hives-sign', system: 'LD' }, bestMatch: true },
          { coding: { display: 'urticaria', code: 'T:urticaria', system: 'LD' }, bestMatch: false },
        ],
        semanticTypes: ['Sign or Symptom', 'Disease or Syndrome'],
      },
      {
        start: 22,
        end: 34,
        original: 'since monday',
        concepts: [],
        semanticTypes: ['Temporal Concept'],
      },
    ]);
  });
});
