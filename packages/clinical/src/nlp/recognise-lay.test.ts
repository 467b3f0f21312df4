import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../kb/format.ts';
import { SHIPPED_KB_PATH } from '../testing/sources.ts';
import { evaluateText, toRecognitionState } from './evaluate.ts';
import type { Recogniser } from './recognise.ts';
import { createRecogniser } from './recognise.ts';

// Issue 17's rules, over the shipped KB: lay phrases, medicines, typos, context.
describe("recognition of patients' own words", () => {
  let recogniser: Recogniser;
  beforeAll(() => {
    const kb = KnowledgeBase.parse(JSON.parse(readFileSync(SHIPPED_KB_PATH, 'utf8')));
    recogniser = createRecogniser(kb.items.concepts);
  });
  const found = (text: string) =>
    recogniser.recognise(text).entities.map((e) => `${e.original} ${e.conceptId} ${e.presence}`);
  const one = (text: string) => recogniser.recognise(text).entities[0];

  it.each([
    ["I feel like I'm going to pass out", 'going to pass out', 'LD:feeling-faint'],
    ['my throat is killing me', 'throat is killing me', 'LD:sore-throat'],
    ["I can't keep any food down", "can't keep any food down", 'LD:vomiting'],
    ['woke up gasping for air', 'gasping for air', 'LD:shortness-of-breath'],
    ['it stings when I wee', 'stings when I wee', 'LD:dysuria'],
    ['my skin looks yellow', 'skin looks yellow', 'LD:jaundice'],
    ['my tummy is killing me', 'tummy is killing me', 'LD:abdominal-pain'],
  ])('lay phrase rule: %s', (text, original, conceptId) => {
    expect(one(text)).toMatchObject({ original, conceptId, presence: 'endorse' });
  });

  it('recognises the medicines of the KB by generic name, brand and misspelling', () => {
    for (const [text, id] of [
      ['ibuprofen', 'LD:ibuprofen'],
      ['paracetamol', 'LD:paracetamol'],
      ['Nurofen', 'LD:ibuprofen'],
      ['Calpol', 'LD:paracetamol'],
      ['acetaminophen', 'LD:paracetamol'],
      ['ibuprofin', 'LD:ibuprofen'],
      ['paracetemol', 'LD:paracetamol'],
    ] as const) {
      expect(one(`I took ${text}`), text).toMatchObject({ conceptId: id, class: 'medication' });
    }
  });

  it('reads the dose and frequency of a medicine', () => {
    expect(one('ibuprofen 400 mg twice a day')).toMatchObject({
      conceptId: 'LD:ibuprofen',
      dose: '400 mg',
      frequency: 'twice a day',
    });
  });

  it("does not read a medicine that didn't help as a denied finding", () => {
    expect(found("I took ibuprofen but it didn't help my back pain")).toContain(
      'back pain LD:back-pain endorse',
    );
  });

  it('tolerates typos: swapped letters of a short word, doubled letters, tense', () => {
    expect(one('abdominal pian')?.conceptId).toBe('LD:abdominal-pain');
    expect(one('feaver and chils')).toBeDefined();
    expect(found('feaver and chils')).toEqual([
      'feaver LD:fever endorse',
      'chils LD:chills endorse',
    ]);
    expect(one('vomitting all night')?.conceptId).toBe('LD:vomiting');
    expect(one('cant stop throwin up')?.conceptId).toBe('LD:vomiting');
  });

  it('never reads an everyday word as a typo', () => {
    expect(found('would it help')).toEqual([]);
    expect(found('my fibre intake')).toEqual([]);
  });

  it('British and American spellings and lay words meet', () => {
    expect(one('oedema in my legs')?.conceptId).toBe('LD:leg-swelling');
    expect(one('blood in my wee')?.conceptId).toBe('LD:hematuria');
    expect(one('peeing blood')?.conceptId).toBe('LD:hematuria');
  });

  it("keeps a negation across a list joined by 'or'", () => {
    expect(found("haven't been sick or had any temperature")).toEqual([
      'been sick LD:vomiting deny',
      'temperature LD:fever deny',
    ]);
  });

  it("reads 'in 2019' as past and a relative's finding as the relative's", () => {
    expect(one('had a DVT in 2019')?.context.historical).toBe(true);
    expect(one('my cousin has epilepsy')?.context.family).toBe(true);
    expect(one('would hay fever do that')?.context.hypothetical).toBe(true);
  });

  it("offers the differential only the patient's own current findings", () => {
    const result = evaluateText(
      'my dad had a heart attack, I had pneumonia as a kid, if I get a fever should I come in, no cough, I take ramipril and I have chest pain',
      recogniser,
    );
    expect(toRecognitionState(result).normalisedObservations.map((o) => o.id)).toEqual([
      'LD:chest-pain',
    ]);
  });

  // Bad input gets no entities and no error: the server answers 400/413 for empty and oversized
  // texts before recognition (nlp-routes.ts).
  it.each([
    ['empty', ''],
    ['whitespace', ' \n\t  '],
    ['binary', '\u0000\u0001\u0002\uFFFD\u0007PK\u0003\u0004'],
    ['another language', 'Tengo dolor de cabeza y fiebre desde ayer'],
    ['another script', '我头痛，发烧'],
    ['emoji', '🤒🤢🤮'],
  ])('%s text: no entities, no error', (_, text) => {
    expect(recogniser.recognise(text).entities).toEqual([]);
  });

  it('recognises a long text without error', () => {
    const text = 'fever and a cough, '.repeat(5000);
    expect(recogniser.recognise(text).entities.length).toBe(10_000);
  });

  // Second round of issue 17, driven by the development part's misses.
  it.each([
    ['I vape every day', 'I vape', 'LD:smoker'],
    ['quit smoking last year', 'quit smoking', 'LD:smoker'],
    ['I drink about 30 units a week', 'units a week', 'LD:alcohol-excess'],
    ["I'm struggling with my weight", 'struggling with my weight', 'LD:obesity'],
    ['had a stent put in', 'had a stent', 'LD:known-heart-disease'],
    [
      'I take tablets for my blood pressure',
      'tablets for my blood pressure',
      'LD:known-hypertension',
    ],
    ['just got back from holiday', 'just got back from', 'LD:recent-travel'],
  ])('risk factor in lay words: %s', (text, original, conceptId) => {
    expect(one(text)).toMatchObject({ original, conceptId, presence: 'endorse' });
  });

  it('reads an allergy to a medicine as the allergy, not as taking the medicine', () => {
    expect(found("I'm allergic to amoxicillin")).toEqual([
      'allergic to amoxicillin LD:known-allergy endorse',
    ]);
    // Taking it is still the medicine.
    expect(found("I'm on amlodipine")).toEqual(['amlodipine LD:amlodipine endorse']);
  });

  it('reads a condition said as an adjective of the patient', () => {
    expect(one("I'm asthmatic")).toMatchObject({ original: 'asthmatic', conceptId: 'LD:asthma' });
    expect(one('he is epileptic')).toMatchObject({ conceptId: 'LD:epilepsy' });
  });

  it("reads a relative's condition in the family context", () => {
    expect(one('my mum has thyroid problems')).toMatchObject({
      conceptId: 'LD:hypothyroidism',
      context: { family: true },
    });
    expect(one('my sister had breast cancer')).toMatchObject({
      conceptId: 'LD:family-history-cancer',
    });
  });

  it('reads a sign said in one plain word', () => {
    expect(found('no swelling and no redness')).toEqual([
      'swelling LD:skin-swelling deny',
      'redness LD:skin-redness deny',
    ]);
    // 'achy' of the whole body is its own word: 'they ache' of a part is not aches all over.
    expect(found('I feel really run down and achy')).toContain('achy LD:generalised-aches endorse');
    expect(found('my legs are heavy and they ache by the evening')).not.toContain(
      'ache LD:generalised-aches endorse',
    );
    // A part named keeps its own finding.
    expect(one('my knee is swollen')).toMatchObject({ conceptId: 'LD:joint-swelling' });
  });

  it('reads a five- or six-letter word with a letter moved as a typo (two edits)', () => {
    expect(one('athsma attack last night')).toMatchObject({
      conceptId: 'LD:asthma',
      fuzzy: true,
    });
    // Two edits that are not a letter moved stay unmatched.
    expect(found('azthna attack')).toEqual([]);
  });
});
