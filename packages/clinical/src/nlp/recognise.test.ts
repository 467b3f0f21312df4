import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConceptClass } from '../kb/format.ts';
import { Concept, KnowledgeBase } from '../kb/format.ts';
import { SHIPPED_KB_PATH } from '../testing/sources.ts';
import type { Presence, Recogniser } from './recognise.ts';
import { createRecogniser, nameKeys, wordKey } from './recognise.ts';

const make = (id: string, canonicalName: string, cls: ConceptClass, aliases: string[] = []) =>
  Concept.parse({
    id,
    canonicalName,
    aliases,
    class: cls,
    provenance: [{ source: 'test', reference: id }],
  });

const concepts = [
  make('T:fever', 'fever', 'symptom', ['temperature', 'high temperature']),
  make('T:cough', 'cough', 'symptom', ['coughing']),
  make('T:dry-cough', 'dry cough', 'symptom'),
  make('T:chest-pain', 'chest pain', 'symptom'),
  make('T:vomiting', 'vomiting', 'symptom', ['throwing up', 'being sick', 'been sick']),
  make('T:appetite', 'loss of appetite', 'symptom', ['no appetite']),
  make('T:stool', 'loose stool', 'sign'),
  make('T:allergy', 'allergy', 'epidemiologicalFactor'),
  make('T:diarrhea', 'diarrhea', 'symptom', ['diarrhoea']),
  make('T:asthma', 'asthma', 'condition'),
  make('T:hives-sign', 'hives', 'sign'),
  make('T:urticaria', 'urticaria', 'condition', ['hives']),
  make('T:pe', 'pulmonary embolism', 'condition', ['PE']),
  make('T:anxiety', 'anxiety', 'symptom', ['worried']),
  make('T:chest', 'chest', 'anatomicalLocation'),
];

describe('wordKey and nameKeys', () => {
  it.each([
    ['Stools', 'stool'],
    ['rashes', 'rash'],
    ['allergies', 'allergy'],
    ['headaches', 'headache'],
    ['itches', 'itch'],
    ["can't", 'cant'],
    ['illness', 'illness'],
    ['virus', 'virus'],
    ['Café', 'cafe'],
  ])('%s → %s', (word, key) => {
    expect(wordKey(word)).toBe(key);
  });

  it('splits names like text and drops punctuation', () => {
    // Keys are stems ('headed' → 'head', see normalise.ts).
    expect(nameKeys('light-headed')).toEqual(['light', 'head']);
    expect(nameKeys("can't lie flat")).toEqual(['cant', 'lie', 'flat']);
  });
});

describe('createRecogniser', () => {
  const recogniser = createRecogniser(concepts);
  const found = (text: string) =>
    recogniser.recognise(text).entities.map((e) => [e.original, e.conceptId, e.presence]);

  it.each<[string, [string, string, Presence][]]>([
    // longest match, case, plurals
    ['Dry cough', [['Dry cough', 'T:dry-cough', 'endorse']]],
    ['loose stools', [['loose stools', 'T:stool', 'endorse']]],
    ['allergies', [['allergies', 'T:allergy', 'endorse']]],
    ['throwing up', [['throwing up', 'T:vomiting', 'endorse']]],
    ['high temperature', [['high temperature', 'T:fever', 'endorse']]],
    // typos of longer words
    ['diarhoea', [['diarhoea', 'T:diarrhea', 'endorse']]],
    ['vomitting', [['vomitting', 'T:vomiting', 'endorse']]],
    // a name inside a cue's words: 'no appetite' is a name, not 'no' + nothing
    ['I have no appetite', [['no appetite', 'T:appetite', 'endorse']]],
    // negation: forward through lists, ended by 'but' and by a new clause
    [
      'no fever or cough',
      [
        ['fever', 'T:fever', 'deny'],
        ['cough', 'T:cough', 'deny'],
      ],
    ],
    [
      'no fever, cough, or chest pain',
      [
        ['fever', 'T:fever', 'deny'],
        ['cough', 'T:cough', 'deny'],
        ['chest pain', 'T:chest-pain', 'deny'],
      ],
    ],
    [
      'no fever but a cough',
      [
        ['fever', 'T:fever', 'deny'],
        ['cough', 'T:cough', 'endorse'],
      ],
    ],
    [
      'no fever and I have a cough',
      [
        ['fever', 'T:fever', 'deny'],
        ['cough', 'T:cough', 'endorse'],
      ],
    ],
    [
      'denies chest pain, has a cough',
      [
        ['chest pain', 'T:chest-pain', 'deny'],
        ['cough', 'T:cough', 'endorse'],
      ],
    ],
    ["I don't have a fever", [['fever', 'T:fever', 'deny']]],
    ['the fever has gone', [['fever', 'T:fever', 'deny']]],
    ['cough not getting better', [['cough', 'T:cough', 'endorse']]],
    [
      'No fever. Bad cough.',
      [
        ['fever', 'T:fever', 'deny'],
        ['cough', 'T:cough', 'endorse'],
      ],
    ],
    ["haven't been sick", [['been sick', 'T:vomiting', 'deny']]],
    // possibility and hypotheticals
    ['maybe a fever', [['fever', 'T:fever', 'unsure']]],
    ['not sure if I have a fever', [['fever', 'T:fever', 'unsure']]],
    ['worried about asthma', [['asthma', 'T:asthma', 'unsure']]],
    ['if the cough gets worse', [['cough', 'T:cough', 'unsure']]],
    [
      'I think I have asthma, cough at night',
      [
        ['asthma', 'T:asthma', 'unsure'],
        ['cough', 'T:cough', 'endorse'],
      ],
    ],
    ['Asthma?', [['Asthma', 'T:asthma', 'unsure']]],
    // short acronyms only in their own case
    ['PE', [['PE', 'T:pe', 'endorse']]],
    ['pe lesson at school', []],
    // shared names: what the patient reports first, the rest as candidates
    ['hives', [['hives', 'T:hives-sign', 'endorse']]],
    // classes outside the default set are not recognised
    ['my chest', []],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('skips ordinary words that are also names', () => {
    expect(found('I am worried')).toEqual([]);
  });

  it('sets ConText flags for history, family and hypotheticals', () => {
    const [historical] = recogniser.recognise('history of asthma').entities;
    const [family] = recogniser.recognise('my mum has asthma').entities;
    const [ago] = recogniser.recognise('I had asthma years ago').entities;
    const [hypothetical] = recogniser.recognise('what if I get a fever').entities;
    expect(historical?.context).toEqual({ historical: true, family: false, hypothetical: false });
    expect(family?.context).toEqual({ historical: false, family: true, hypothetical: false });
    expect(ago?.context.historical).toBe(true);
    expect(hypothetical).toMatchObject({ presence: 'unsure', context: { hypothetical: true } });
  });

  it('returns offsets, the matched name and every candidate', () => {
    const text = 'Got HIVES today';
    const [entity] = recogniser.recognise(text).entities;
    expect(entity).toMatchObject({
      category: 'concept',
      start: 4,
      end: 9,
      original: 'HIVES',
      canonicalName: 'hives',
      class: 'sign',
      negated: false,
      matched: 'hives',
      fuzzy: false,
    });
    expect(entity?.candidates.map((c) => c.conceptId)).toEqual(['T:hives-sign', 'T:urticaria']);
    expect(text.slice(entity?.start, entity?.end)).toBe(entity?.original);
  });

  it('recognises onsets beside concepts', () => {
    const result = recogniser.recognise('cough for 3 days');
    expect(result.onsets.map((o) => o.original)).toEqual(['for 3 days']);
  });

  it('can be limited to other classes and told to skip fuzzy matching', () => {
    const locations = createRecogniser(concepts, { classes: ['anatomicalLocation'] });
    expect(locations.recognise('my chest').entities.map((e) => e.conceptId)).toEqual(['T:chest']);
    const exact = createRecogniser(concepts, { fuzzy: false });
    expect(exact.recognise('vomiitng').entities).toEqual([]);
  });
});

describe('recognition over the shipped KB', () => {
  let recogniser: Recogniser;
  beforeAll(() => {
    const kb = KnowledgeBase.parse(JSON.parse(readFileSync(SHIPPED_KB_PATH, 'utf8')));
    recogniser = createRecogniser(kb.items.concepts);
  });

  it.each([
    ['throwing up', 'LD:vomiting'],
    ['tummy ache', 'LD:abdominal-pain'],
    ['burning when I pee', 'LD:dysuria'],
    ['the runs', 'LD:diarrhea'],
    ['short of breath', 'LD:shortness-of-breath'],
    ['pins and needles', 'LD:tingling'],
    ['feel sick', 'LD:nausea'],
    ['been sick', 'LD:vomiting'],
  ])('%s → %s', (text, id) => {
    expect(recogniser.recognise(text).entities[0]?.conceptId).toBe(id);
  });
});

describe('ways of saying a name, by rule', () => {
  const recogniser = createRecogniser([
    make('T:distension', 'swollen tummy', 'sign', ['distended tummy']),
    make('T:stiff-neck', 'neck stiffness', 'sign', ['stiff neck']),
    make('T:knee-pain', 'knee pain', 'symptom'),
    make('T:testicular-pain', 'testicular pain', 'symptom', ['painful testicle']),
    make('T:scrotal-swelling', 'swollen scrotum', 'sign', ['swollen testicle']),
    make('T:red-breast', 'red breast', 'sign'),
    make('T:hot-breast', 'hot breast', 'sign'),
    make('T:voice', 'loss of voice', 'symptom', ['lost my voice']),
    make('T:trismus', 'trismus', 'sign', ['cannot open my mouth']),
    make('T:insomnia', 'insomnia', 'symptom', ["can't sleep"]),
    make('T:jerking', 'jerking limbs', 'sign', ['arms and legs jerking']),
    make('T:abdominal-pain', 'abdominal pain', 'symptom'),
  ]);
  const found = (text: string) =>
    recogniser.recognise(text).entities.map((e) => [e.original, e.conceptId, e.presence]);

  it('reads an adjective name said the other way round, with linking verbs and fillers', () => {
    expect(found('my tummy is really swollen')).toEqual([
      ['tummy is really swollen', 'T:distension', 'endorse'],
    ]);
    expect(found('neck feels stiff and no tummy swollen')).toEqual([
      ['neck feels stiff', 'T:stiff-neck', 'endorse'],
      ['tummy swollen', 'T:distension', 'deny'],
    ]);
  });

  it("says 'PART pain' as 'PART hurts', 'pain in my PART' and 'sore PART'", () => {
    expect(found('my knee hurts')).toEqual([['knee hurts', 'T:knee-pain', 'endorse']]);
    expect(found('pain in the knee')).toEqual([['pain in the knee', 'T:knee-pain', 'endorse']]);
    expect(found('sore knee, knee is very painful')).toEqual([
      ['sore knee', 'T:knee-pain', 'endorse'],
      ['knee is very painful', 'T:knee-pain', 'endorse'],
    ]);
    // An adjective ('abdominal') is not a part to say 'hurts' of.
    expect(found('abdominal hurts')).toEqual([]);
  });

  it('reads possessives and cannot phrases as one word', () => {
    expect(found('she lost her voice')).toEqual([['lost her voice', 'T:voice', 'endorse']]);
    expect(found('I can barely open my mouth and I am unable to sleep')).toEqual([
      ['can barely open my mouth', 'T:trismus', 'endorse'],
      ['unable to sleep', 'T:insomnia', 'endorse'],
    ]);
    expect(found('his arms and legs were jerking')).toEqual([
      ['arms and legs were jerking', 'T:jerking', 'endorse'],
    ]);
  });

  it('gives each coordinated adjective its own finding of the part', () => {
    expect(found('painful swollen testicle')).toEqual([
      ['painful', 'T:testicular-pain', 'endorse'],
      ['swollen testicle', 'T:scrotal-swelling', 'endorse'],
    ]);
    expect(found('my breast is red, hot and sore')).toEqual([
      ['breast is red', 'T:red-breast', 'endorse'],
      ['hot', 'T:hot-breast', 'endorse'],
    ]);
  });

  it('never ends a match on a filler', () => {
    expect(found('swollen tummy really')).toEqual([['swollen tummy', 'T:distension', 'endorse']]);
  });
});
