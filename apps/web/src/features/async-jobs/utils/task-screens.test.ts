import { describe, expect, it } from 'vitest';
import { SERVED_PIPELINES } from '../../../test/features/async-jobs/fixtures.ts';
import { checkSubmission, itemsOf, screenOf, stepLabel } from './task-screens.ts';

// Which screen each step shows is the server's (apps/server/src/modules/async-jobs/pipelines.test.ts
// holds the spec 3 §2 table); the portal reads it from the served pipelines.
describe('task screen selection', () => {
  it.each([
    [3, 'add_observations', 'observations'],
    [3, 'observation_relationships', 'relationships'],
    [3, 'external_approval', 'relationships.approval'],
    [5, 'normalisation_approval', 'normalisation'],
    [7, 'internal_review', 'location.review'],
  ])('pipeline %s, step %s → the screen the step names, %s', (pipeline, step, screen) => {
    expect(screenOf(SERVED_PIPELINES, { lock: { pipeline, step } })).toBe(screen);
  });

  it('has no screen for a pipeline or a step the served pipelines do not list', () => {
    expect(
      screenOf(SERVED_PIPELINES, { lock: { pipeline: 12, step: 'rephrase' } }),
    ).toBeUndefined();
    expect(screenOf(SERVED_PIPELINES, { lock: { pipeline: 1, step: 'annotate' } })).toBeUndefined();
    expect(screenOf([], { lock: { pipeline: 1, step: 'rephrase' } })).toBeUndefined();
  });
});

describe('helpers', () => {
  it('shows underscores as spaces, capitalised like the section titles', () => {
    expect(stepLabel('rephrase_approval')).toBe('Rephrase approval');
    expect(stepLabel('add_complications')).toBe('Add complications');
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
