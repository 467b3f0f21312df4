import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { describe, expect, it } from 'vitest';
import {
  effectiveCategory,
  isRewordRequired,
  rewordTargets,
  type RewordContext,
} from './reword.ts';

const e = (start: number, end: number, extract: string, category: string): AnnotationEntity => ({
  start,
  end,
  extract,
  category,
});

describe('the three reword prompts, one per kind of target (spec 1 §4)', () => {
  it.each([
    [
      'patient_description',
      'feeling rough',
      'For feeling rough what is the main symptom you are having?',
    ],
    [
      'current_complaint',
      'my knee',
      'When did my knee start? Can you describe any symptoms that happen with my knee?',
    ],
    [
      'chief_complaints',
      'back pain',
      'When did back pain start? Can you describe any symptoms that happen with back pain?',
    ],
    ['onset', 'last week', 'Is this a problem ongoing prior to last week?'],
  ])('a %s target %j is asked %j', (category, extract, prompt) => {
    const [target] = rewordTargets([e(0, extract.length, extract, category)], {
      slotCode: category,
    });
    expect(target?.prompt).toBe(prompt);
  });
});

describe('when rewording is required (spec 2 §5)', () => {
  it.each<[string, RewordContext, boolean]>([
    ['slot chief_complaints', { slotCode: 'chief_complaints' }, true],
    ['slot current_complaint', { slotCode: 'current_complaint' }, true],
    ['slot patient_description', { slotCode: 'patient_description' }, true],
    ['slot onset', { slotCode: 'onset' }, true],
    ['another slot', { slotCode: 'fever' }, false],
    ['a goal intent', { slotCode: 'fever', goalIntent: true }, true],
    ['an original job of type reword', { originalJob: 'reword' }, true],
    ['an original job of another type', { originalJob: 'full' }, false],
    ['nothing known', {}, false],
  ])('%s: %s', (_name, context, expected) => {
    expect(isRewordRequired(context)).toBe(expected);
  });
});

describe('a current_complaint with an sx entity at the same span is treated as patient_description', () => {
  it.each([
    [
      'sx on the same span',
      [e(0, 8, 'headache', 'current_complaint'), e(0, 8, 'headache', 'sx')],
      'patient_description',
    ],
    [
      'sx on another span',
      [e(0, 8, 'headache', 'current_complaint'), e(0, 4, 'head', 'sx')],
      'current_complaint',
    ],
    [
      'no sx',
      [e(0, 8, 'headache', 'current_complaint'), e(0, 8, 'headache', 'dx')],
      'current_complaint',
    ],
  ])('%s gives %s', (_name, entities, expected) => {
    const [complaint] = entities;
    expect(complaint && effectiveCategory(complaint, entities)).toBe(expected);
  });

  it('the reword step then asks the patient_description prompt', () => {
    const targets = rewordTargets(
      [e(0, 8, 'headache', 'current_complaint'), e(0, 8, 'headache', 'sx')],
      { slotCode: 'current_complaint' },
    );
    expect(targets.map((t) => [t.category, t.prompt])).toEqual([
      ['patient_description', 'For headache what is the main symptom you are having?'],
    ]);
  });
});

describe('reword targets', () => {
  const entities = [
    e(20, 29, 'yesterday', 'onset'),
    e(0, 8, 'headache', 'current_complaint'),
    e(10, 14, 'knee', 'sx'),
    e(0, 8, 'headache', 'current_complaint'),
  ];
  it('are the reword-category entities in message order, each span and category once', () => {
    expect(rewordTargets(entities, { slotCode: 'onset' }).map((t) => t.entity.extract)).toEqual([
      'headache',
      'yesterday',
    ]);
  });

  it('are none when rewording is not required', () => {
    expect(rewordTargets(entities, { slotCode: 'fever' })).toEqual([]);
  });
});
