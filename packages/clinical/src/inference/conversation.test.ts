import { describe, expect, it } from 'vitest';
import { KbItems } from '../kb/format.ts';
import { createRecogniser } from '../nlp/recognise.ts';
import { conversationDifferential, conversationFindings } from './conversation.ts';
import { createDifferentialModel } from './differential.ts';

const concept = (id: string, canonicalName: string, cls: string, extra: object = {}) => ({
  id,
  canonicalName,
  class: cls,
  provenance: [{ source: 'test', reference: id }],
  ...extra,
});
const edge = (from: string, to: string, weight: 'Low' | 'Medium' | 'High') => ({
  id: `${from}>${to}`,
  from,
  to,
  weight,
  basis: 'test',
});

const items = KbItems.parse({
  concepts: [
    concept('T:pneumonia', 'pneumonia', 'condition', { acuity: 'urgent' }),
    concept('T:cold', 'common cold', 'condition', { acuity: 'other' }),
    concept('T:sepsis', 'sepsis', 'condition', { acuity: 'emergent' }),
    concept('T:fever', 'fever', 'symptom', { aliases: ['temperature'] }),
    concept('T:cough', 'cough', 'symptom'),
    concept('T:breathless', 'shortness of breath', 'symptom', { aliases: ['breathless'] }),
    concept('T:runny-nose', 'runny nose', 'symptom'),
    concept('T:confusion', 'confusion', 'sign', { aliases: ['confused'] }),
  ],
  relationships: [
    edge('T:pneumonia', 'T:fever', 'High'),
    edge('T:pneumonia', 'T:cough', 'High'),
    edge('T:pneumonia', 'T:breathless', 'High'),
    edge('T:cold', 'T:runny-nose', 'High'),
    edge('T:cold', 'T:cough', 'Medium'),
    edge('T:sepsis', 'T:fever', 'High'),
    edge('T:sepsis', 'T:confusion', 'High'),
  ],
  complications: [
    {
      id: 'T:pneumonia~sepsis',
      condition: 'T:pneumonia',
      name: 'sepsis',
      concept: 'T:confusion',
      acuity: 'emergent',
      question: 'Are you confused?',
      basis: 'test',
    },
    {
      id: 'T:pneumonia~failure',
      condition: 'T:pneumonia',
      name: 'respiratory failure',
      acuity: 'emergent',
      question: 'Are you so breathless you cannot speak?',
      basis: 'test',
    },
  ],
});
const recogniser = createRecogniser(items.concepts);
const model = createDifferentialModel(items);

describe('conversation differential', () => {
  it("reads the patient's own current findings; a later mention replaces an earlier one", () => {
    const findings = conversationFindings(
      [
        { id: 'm1', text: 'I have a fever and a cough. My mum has a runny nose.' },
        { id: 'm2', text: 'I had confusion last year.' },
        { id: 'm3', text: 'Actually no fever now, but I am breathless' },
      ],
      recogniser,
    );
    expect(findings.map((f) => [f.conceptId, f.presence, f.messageId])).toEqual([
      ['T:fever', 'deny', 'm3'],
      ['T:cough', 'endorse', 'm1'],
      ['T:breathless', 'endorse', 'm3'],
    ]);
  });

  it('ranks the conditions, answers complications from the conversation and raises the acuity', () => {
    const quiet = conversationDifferential(
      [{ id: 'm1', text: 'fever, cough and breathless' }],
      recogniser,
      model,
      items,
    );
    expect(quiet.inference[0]).toMatchObject({
      conditionName: 'pneumonia',
      conditionId: 'T:pneumonia',
      acuity: 'urgent',
      complications: [
        { id: 'T:pneumonia~sepsis', acuity: 'emergent' },
        { id: 'T:pneumonia~failure', acuity: 'emergent' },
      ],
    });
    // Breathlessness is pneumonia's own finding: it does not answer 'so breathless you cannot
    // speak?' with yes.
    expect(quiet.inference[0]?.complications.map((c) => c.response)).toEqual([
      undefined,
      undefined,
    ]);
    expect(quiet.acuity).toBe('urgent');
    expect(quiet.acuityRing).toBe(60);

    // The patient then says they are confused: the endorsed emergent complication raises it.
    const worse = conversationDifferential(
      [
        { id: 'm1', text: 'fever, cough and breathless' },
        { id: 'm2', text: 'and now I feel confused' },
      ],
      recogniser,
      model,
      items,
    );
    expect(worse.inference[0]?.conditionId).toBe('T:pneumonia');
    expect(worse.inference[0]?.complications[0]?.response).toBe('endorse');
    expect(worse.acuity).toBe('emergent');
    expect(worse.acuityRing).toBe(100);
  });

  it('gives an empty differential for a conversation with no findings', () => {
    const empty = conversationDifferential(
      [{ id: 'm1', text: 'Hello, can I book an appointment?' }],
      recogniser,
      model,
      items,
    );
    expect(empty).toMatchObject({ findings: [], inference: [], acuityRing: 30 });
    expect(empty.acuity).toBeUndefined();
  });
});
