import { describe, expect, it } from 'vitest';
import { checkSubmission, itemsOf, screenFor, stepLabel } from './task-screens.ts';

const type = (name: string) => `hitl.jobs.async.${name}`;

describe('task screen selection', () => {
  it.each([
    ['text.rephrase', 'REGISTERED', 'rephrase'],
    ['text.rephrase', 'PENDING_APPROVAL', 'rephrase.approval'],
    ['text.annotation', 'REGISTERED', 'annotation'],
    ['text.annotation', 'PENDING_APPROVAL', 'annotation.approval'],
    ['entity.normalisation', 'PENDING_APPROVAL', 'normalisation'],
    ['condition.observations', 'REGISTERED', 'observations'],
    ['condition.observations', 'OBSERVATIONS_ADDED', 'relationships'],
    ['condition.observations', 'PENDING_EXTERNAL_APPROVAL', 'relationships.approval'],
    ['condition.complications', 'REGISTERED', 'complications'],
    ['condition.complications', 'PENDING_INTERNAL_APPROVAL', 'complications.approval'],
    ['observation.questions', 'REGISTERED', 'questions'],
    ['observation.questions', 'PENDING_EXTERNAL_APPROVAL', 'questions.approval'],
    ['clinical.location', 'REGISTERED', 'location'],
    ['clinical.location', 'PENDING_INTERNAL_REVIEW', 'location.review'],
    ['clinical.differential', 'REGISTERED', 'differential'],
    ['conversation.annotation', 'REGISTERED', 'conversation.annotation'],
    ['condition.medications', 'PENDING_APPROVAL', 'medications'],
    ['condition.symptoms', 'PENDING_APPROVAL', 'symptoms'],
  ])('%s in %s → %s', (jobType, state, screen) => {
    expect(screenFor(type(jobType), state)).toBe(screen);
  });

  it('has no screen for an unknown type or prefix', () => {
    expect(screenFor(type('something.else'), 'REGISTERED')).toBeUndefined();
    expect(screenFor('text.rephrase', 'REGISTERED')).toBeUndefined();
  });
});

describe('helpers', () => {
  it('shows underscores as spaces', () => {
    expect(stepLabel('rephrase_approval')).toBe('rephrase approval');
  });

  it('reads list items by text or name and skips the rest', () => {
    expect(
      itemsOf(
        { list: [{ id: 'a', name: 'Sepsis' }, { id: 'b', text: 'x' }, { name: 'no id' }, 3] },
        'list',
      ),
    ).toEqual([
      { id: 'a', text: 'Sepsis' },
      { id: 'b', text: 'x' },
    ]);
    expect(itemsOf({}, 'list')).toEqual([]);
  });

  it("reports the contract's first message", () => {
    expect(checkSubmission('questions', { questions: [{ text: ' ' }] })).toEqual({
      ok: false,
      error: 'Please add a question.',
    });
    expect(checkSubmission('rephrase', { rephrases: ['a', 'b'] })).toEqual({
      ok: false,
      error: 'Must be more than 3 characters.',
    });
    expect(checkSubmission('rephrase', { rephrases: ['my head', 'sore head'] })).toEqual({
      ok: true,
      data: { rephrases: ['my head', 'sore head'] },
    });
  });
});
