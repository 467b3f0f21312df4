import { describe, expect, it } from 'vitest';
import type { ConceptClass, KbItems } from '../kb/format.ts';
import { KbItems as KbItemsSchema } from '../kb/format.ts';
import { createDifferentialModel, differentialDiagnosis, entropy, LEAK } from './differential.ts';
import { DiagnosisPrediction } from './schemas.ts';

const concept = (id: string, canonicalName: string, cls: ConceptClass, extra: object = {}) => ({
  id,
  canonicalName,
  class: cls,
  provenance: [{ source: 'test', reference: id }],
  ...extra,
});
const edge = (
  from: string,
  to: string,
  weight: 'Low' | 'Medium' | 'High',
  correlation = 'Positive',
) => ({
  id: `${from}>${to}`,
  from,
  to,
  weight,
  correlation,
  basis: 'test',
});

const items: KbItems = KbItemsSchema.parse({
  concepts: [
    concept('T:cold', 'common cold', 'condition', { acuity: 'other' }),
    concept('T:flu', 'influenza', 'condition', { acuity: 'other' }),
    concept('T:strep', 'strep throat', 'condition', { acuity: 'urgent' }),
    concept('T:lonely', 'unrelated condition', 'condition'),
    concept('T:fever', 'fever', 'symptom', { aliases: ['temperature'] }),
    concept('T:cough', 'cough', 'symptom'),
    concept('T:sore-throat', 'sore throat', 'symptom'),
    concept('T:runny-nose', 'runny nose', 'symptom'),
    concept('T:myalgia', 'muscle aches', 'symptom'),
    concept('T:exudate', 'tonsillar exudate', 'sign'),
  ],
  relationships: [
    edge('T:cold', 'T:runny-nose', 'High'),
    edge('T:cold', 'T:sore-throat', 'Medium'),
    edge('T:cold', 'T:cough', 'Medium'),
    edge('T:cold', 'T:fever', 'Low'),
    edge('T:flu', 'T:fever', 'High'),
    edge('T:flu', 'T:myalgia', 'High'),
    edge('T:flu', 'T:cough', 'Medium'),
    edge('T:strep', 'T:sore-throat', 'High'),
    edge('T:strep', 'T:fever', 'Medium'),
    edge('T:strep', 'T:exudate', 'High'),
    edge('T:strep', 'T:cough', 'High', 'Negative'),
  ],
});

const top = (observations: Parameters<typeof differentialDiagnosis>[1]) =>
  differentialDiagnosis(items, observations).inference.map((e) => e.conditionId);

describe('differentialDiagnosis', () => {
  it.each<[string, Parameters<typeof differentialDiagnosis>[1], string]>([
    ['runny nose suggests a cold', [{ observation: 'runny nose' }], 'T:cold'],
    [
      'fever and aches suggest flu',
      [{ observation: 'fever' }, { observation: 'muscle aches' }],
      'T:flu',
    ],
    [
      'sore throat and exudate suggest strep',
      [{ observation: 'sore throat' }, { observation: 'tonsillar exudate' }],
      'T:strep',
    ],
    [
      'a cough argues against strep',
      [{ observation: 'sore throat' }, { observation: 'cough' }],
      'T:cold',
    ],
    [
      'an alias or id works as a name',
      [{ observation: 'TEMPERATURE' }, { observation: 'T:myalgia' }],
      'T:flu',
    ],
    [
      'a denied observation counts against',
      [{ observation: 'fever' }, { observation: 'muscle aches', presence: 'deny' }],
      'T:strep',
    ],
  ])('%s', (_, observations, expected) => {
    expect(top(observations)[0]).toBe(expected);
  });

  it('returns probabilities sorted, associated observations and a valid prediction', () => {
    const prediction = differentialDiagnosis(items, [
      { observation: 'fever' },
      { observation: 'cough' },
    ]);
    expect(DiagnosisPrediction.parse(prediction)).toBeTruthy();
    const probabilities = prediction.inference.map((e) => e.probability);
    expect(probabilities).toEqual([...probabilities].sort((a, b) => b - a));
    expect(prediction.inference[0]).toMatchObject({
      conditionId: 'T:flu',
      condition: 'influenza',
      acuity: 'other',
      associatedObservations: [
        { observation: 'fever', observationId: 'T:fever', weight: 0.85 },
        { observation: 'cough', observationId: 'T:cough', weight: 0.5 },
      ],
    });
  });

  it('lists only conditions with at least one associated observation', () => {
    const ids = top([{ observation: 'muscle aches' }]);
    expect(ids).toEqual(['T:flu']);
    expect(top([])).toEqual([]);
  });

  it('reports unknown observation names instead of dropping them silently', () => {
    const prediction = differentialDiagnosis(items, [
      { observation: 'fever' },
      { observation: 'purple toes' },
    ]);
    expect(prediction.unknownObservations).toEqual(['purple toes']);
    expect(prediction.inference.length).toBeGreaterThan(0);
  });

  it('scales evidence by the input weight (0 ignores it)', () => {
    const base = differentialDiagnosis(items, [
      { observation: 'runny nose' },
      { observation: 'fever' },
    ]);
    const heavy = differentialDiagnosis(items, [
      { observation: 'runny nose' },
      { observation: 'fever', weight: 3 },
    ]);
    const ignored = differentialDiagnosis(items, [
      { observation: 'runny nose' },
      { observation: 'fever', weight: 0 },
    ]);
    const flu = (p: typeof base) =>
      p.inference.find((e) => e.conditionId === 'T:flu')?.probability ?? 0;
    expect(flu(heavy)).toBeGreaterThan(flu(base));
    expect(flu(ignored)).toBe(0);
  });

  it('ranks differentiating observations by information gain, leaving out given ones', () => {
    const { differentiatingObservations } = differentialDiagnosis(items, [
      { observation: 'fever' },
    ]);
    const ids = differentiatingObservations.map((d) => d.observationId);
    expect(ids).not.toContain('T:fever');
    expect(ids.length).toBeGreaterThan(0);
    for (const d of differentiatingObservations) {
      expect(d.relevance).toBeGreaterThan(0);
      expect(d.relevance).toBeLessThanOrEqual(1);
    }
    const relevance = differentiatingObservations.map((d) => d.relevance);
    expect(relevance).toEqual([...relevance].sort((a, b) => b - a));
    // With fever known, aches (flu) and exudate (strep) split the field better than a runny nose.
    expect(ids.indexOf('T:myalgia')).toBeLessThan(ids.indexOf('T:runny-nose'));
  });

  it('takes priors when given', () => {
    const observations = [{ observation: 'fever' }];
    const even = top(observations);
    const biased = differentialDiagnosis(items, observations, { priors: { 'T:cold': 100 } });
    expect(even[0]).toBe('T:flu');
    expect(biased.inference[0]?.conditionId).toBe('T:cold');
  });

  it('resolves names for the observation autocomplete', () => {
    const model = createDifferentialModel(items);
    expect(model.observations.map((o) => o.canonicalName).slice(0, 3)).toEqual([
      'cough',
      'fever',
      'muscle aches',
    ]);
    expect(model.resolveObservation('Temperature')?.id).toBe('T:fever');
    expect(model.resolveObservation('nothing')).toBeUndefined();
    expect(LEAK).toBeGreaterThan(0);
  });
});

describe('broader findings (observation parents)', () => {
  // abdominal pain ⊃ right lower abdominal pain ⊃ pain moving to the right lower abdomen.
  const tree: KbItems = KbItemsSchema.parse({
    concepts: [
      concept('T:appendicitis', 'appendicitis', 'condition'),
      concept('T:gastro', 'gastroenteritis', 'condition'),
      concept('T:ibs', 'irritable bowel', 'condition'),
      concept('T:kidney', 'kidney stone', 'condition'),
      concept('T:pain', 'abdominal pain', 'symptom', { aliases: ['tummy ache'] }),
      concept('T:rlq', 'right lower abdominal pain', 'symptom', { parents: ['T:pain'] }),
      concept('T:migrating', 'pain moving to the right', 'symptom', { parents: ['T:rlq'] }),
      concept('T:cramps', 'abdominal cramps', 'symptom', { parents: ['T:pain'] }),
      concept('T:vomiting', 'vomiting', 'symptom'),
      concept('T:diarrhoea', 'diarrhoea', 'symptom'),
    ],
    relationships: [
      edge('T:appendicitis', 'T:migrating', 'High'),
      edge('T:appendicitis', 'T:rlq', 'Medium'),
      edge('T:appendicitis', 'T:vomiting', 'Medium'),
      edge('T:gastro', 'T:cramps', 'Medium'),
      edge('T:gastro', 'T:diarrhoea', 'High'),
      edge('T:gastro', 'T:vomiting', 'High'),
      edge('T:ibs', 'T:pain', 'Low'),
      edge('T:ibs', 'T:cramps', 'High'),
      edge('T:kidney', 'T:pain', 'High', 'Negative'),
      edge('T:kidney', 'T:cramps', 'High'),
      edge('T:kidney', 'T:diarrhoea', 'Low'),
    ],
  });
  const flat: KbItems = {
    ...tree,
    concepts: tree.concepts.map((c) => ({ ...c, parents: [] })),
  };
  const diagnose = (items: KbItems, observations: Parameters<typeof differentialDiagnosis>[1]) =>
    differentialDiagnosis(items, observations).inference;

  it('a condition written with a narrow finding is found from the broad one the patient says', () => {
    const broad = diagnose(tree, [{ observation: 'tummy ache' }, { observation: 'vomiting' }]);
    const appendicitis = broad.find((e) => e.conditionId === 'T:appendicitis');
    // Through two levels, with the likeliest narrow finding's weight (High).
    expect(appendicitis?.associatedObservations).toEqual([
      { observation: 'abdominal pain', observationId: 'T:pain', weight: 0.85 },
      { observation: 'vomiting', observationId: 'T:vomiting', weight: 0.5 },
    ]);
    // Without the parents the same words leave appendicitis's pain unexplained.
    const without = diagnose(flat, [{ observation: 'tummy ache' }, { observation: 'vomiting' }]);
    const flatAppendicitis = without.find((e) => e.conditionId === 'T:appendicitis');
    expect(flatAppendicitis?.associatedObservations.map((a) => a.observationId)).toEqual([
      'T:vomiting',
    ]);
    expect(appendicitis?.probability).toBeGreaterThan(flatAppendicitis?.probability ?? 1);
  });

  it('keeps a stronger own edge, and never lifts a Negative one', () => {
    const ranked = diagnose(tree, [{ observation: 'abdominal pain' }]);
    // IBS: its own Low edge gives way to its High cramps.
    expect(ranked.find((e) => e.conditionId === 'T:ibs')?.associatedObservations).toEqual([
      { observation: 'abdominal pain', observationId: 'T:pain', weight: 0.85 },
    ]);
    // A kidney stone's Negative edge to abdominal pain stays: it is not associated, and last.
    expect(ranked.some((e) => e.conditionId === 'T:kidney')).toBe(false);
    // Denying the broad finding counts against the conditions with a narrow one: against
    // gastroenteritis (cramps, Medium) as 1 − 0.5, next to a kidney stone that argues against it.
    const odds = (items: KbItems, deny: boolean) => {
      const ranked = differentialDiagnosis(items, [
        { observation: 'diarrhoea' },
        ...(deny ? [{ observation: 'abdominal pain', presence: 'deny' as const }] : []),
      ]).inference;
      const p = (id: string) => ranked.find((e) => e.conditionId === id)?.probability ?? 0;
      return p('T:gastro') / p('T:kidney');
    };
    expect(odds(tree, true) / odds(tree, false)).toBeLessThan(0.6);
    expect(odds(flat, true) / odds(flat, false)).toBeGreaterThan(0.9);
  });

  it('does not pass a broad finding down: the narrow one is not implied by the broad', () => {
    const ranked = diagnose(tree, [{ observation: 'right lower abdominal pain' }]);
    expect(ranked.map((e) => e.conditionId)).toEqual(['T:appendicitis']);
  });

  it('ignores parents outside the observations and survives a cycle', () => {
    const odd: KbItems = {
      ...tree,
      concepts: tree.concepts.map((c) =>
        c.id === 'T:pain' ? { ...c, parents: ['T:migrating', 'T:appendicitis', 'T:elsewhere'] } : c,
      ),
    };
    const ranked = diagnose(odd, [{ observation: 'abdominal pain' }]);
    expect(ranked.map((e) => e.conditionId).sort()).toEqual([
      'T:appendicitis',
      'T:gastro',
      'T:ibs',
    ]);
  });
});

describe('entropy', () => {
  it.each([
    [[1], 0],
    [[0.5, 0.5], 1],
    [[0.25, 0.25, 0.25, 0.25], 2],
    [[0, 1, 0], 0],
  ])('%j → %d bits', (distribution, bits) => {
    expect(entropy(distribution)).toBeCloseTo(bits, 10);
  });
});
