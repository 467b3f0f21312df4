import type { AnnotationEntity, JobPurpose } from '@loopdesk/contracts/workbench-payloads.ts';
import { describe, expect, it } from 'vitest';
import { readMessageJob } from './job-data.ts';
import {
  customExceptionLabel,
  exceptionAction,
  initialEntities,
  purposePrefix,
  showsMenu,
  submitAction,
} from './purposes.ts';

describe('submit actions by purpose (spec 1 §4)', () => {
  it.each<[JobPurpose | undefined, string | undefined, string]>([
    ['full', undefined, 'answer'],
    ['annotate-only', undefined, 'suggest_annotations'],
    ['verify-answered', undefined, 'suggest_continue'],
    ['reword', undefined, 'suggest_entity_reword'],
    ['normalise', undefined, 'suggest_entity_normalisation'],
    ['full', 'book_appointment', 'answer'],
    [undefined, 'book_appointment', 'book_appointment'],
    [undefined, '', 'execute'],
    [undefined, undefined, 'execute'],
  ])('purpose %s with goal %s sends %s', (purpose, goal, action) => {
    expect(submitAction(purpose, goal)).toBe(action);
  });

  it.each([
    [false, 'suggest_escalation'],
    [true, 'suggest_forget'],
  ])('an exception with a custom event %s sends %s', (customEvent, action) => {
    expect(exceptionAction(customEvent)).toBe(action);
  });

  it.each<[string, Record<string, unknown> | undefined, string | undefined]>([
    [
      'message.annotation.job',
      { purpose: 'full', exceptionLabel: 'Forget message' },
      'Forget message',
    ],
    [
      'message.annotation.job',
      { purpose: 'annotate-only', exceptionLabel: '  Off topic ' },
      'Off topic',
    ],
    ['message.annotation.job', { purpose: 'full' }, undefined],
    ['message.annotation.job', { purpose: 'full', exceptionLabel: '   ' }, undefined],
    ['message.annotation.job', { purpose: 'full', exceptionLabel: 42 }, undefined],
    // No purpose: the exception is {action:'exception'}, which has no room for a custom event.
    ['message.annotation.job', { exceptionLabel: 'Forget message' }, undefined],
    ['message.annotation.job', undefined, undefined],
    ['exception.job', { purpose: 'full', exceptionLabel: 'Forget message' }, undefined],
    ['intent.classification.job', { purpose: 'full', exceptionLabel: 'Forget' }, undefined],
  ])('a %s with job %j has the custom exception label %s', (type, job, label) => {
    const view = readMessageJob(job === undefined ? {} : { job });
    expect(customExceptionLabel(type, view)).toBe(label);
  });
});

describe('what each purpose starts with (spec 1 §5)', () => {
  const categories = [
    'chief_complaint',
    'dx',
    'sx',
    'associated_sx',
    'nlp_sx',
    'onset',
    'current_complaint',
    'patient_description',
    'intent',
  ];
  const entities: AnnotationEntity[] = categories.map((category, i) => ({
    start: i * 2,
    end: i * 2 + 1,
    extract: 'x',
    category,
  }));

  it.each<[JobPurpose | undefined, string[], boolean]>([
    ['annotate-only', ['current_complaint', 'patient_description', 'intent'], true],
    ['verify-answered', [], false],
    ['full', categories, true],
    [undefined, categories, true],
  ])('%s shows %j, menu %s', (purpose, shown, menu) => {
    expect(initialEntities(purpose, entities).map((e) => e.category)).toEqual(shown);
    expect(showsMenu(purpose)).toBe(menu);
  });

  it.each<[JobPurpose | undefined, string]>([
    ['annotate-only', 'Annotate purpose: '],
    ['verify-answered', 'Verify answered: '],
    ['full', ''],
    [undefined, ''],
  ])('%s titles its screen with the prefix %j', (purpose, prefix) => {
    expect(purposePrefix(purpose)).toBe(prefix);
  });
});
