import { JOB_TYPE_PREFIX } from '@loopdesk/contracts/async-jobs.ts';
import { describe, expect, it } from 'vitest';
import { PIPELINES } from './pipelines.ts';

/** The screen the portal shows for a task of `type` waiting in `state`, as the pipelines say. */
function screenOf(type: string, state: string): string | undefined {
  const pipeline = PIPELINES.find((p) => p.jobType === `${JOB_TYPE_PREFIX}${type}`);
  return pipeline?.definition.main.steps.find((step) => step.state === state)?.screen;
}

/** Spec 3 §2 "Task screen selection": task type and state → screen. */
const SELECTION: [type: string, state: string, screen: string][] = [
  ['text.rephrase', 'REGISTERED', 'rephrase'],
  ['text.rephrase', 'PENDING_APPROVAL', 'rephrase.approval'],
  ['text.annotation', 'REGISTERED', 'annotation'],
  ['text.annotation', 'PENDING_APPROVAL', 'annotation.approval'],
  ['entity.normalisation', 'REGISTERED', 'normalisation'],
  ['entity.normalisation', 'PENDING_APPROVAL', 'normalisation'],
  ['condition.observations', 'REGISTERED', 'observations'],
  ['condition.observations', 'OBSERVATIONS_ADDED', 'relationships'],
  ['condition.observations', 'PENDING_INTERNAL_APPROVAL', 'relationships.approval'],
  ['condition.observations', 'PENDING_EXTERNAL_APPROVAL', 'relationships.approval'],
  ['condition.complications', 'REGISTERED', 'complications'],
  ['condition.complications', 'PENDING_INTERNAL_APPROVAL', 'complications.approval'],
  ['condition.complications', 'PENDING_EXTERNAL_APPROVAL', 'complications.approval'],
  ['observation.questions', 'REGISTERED', 'questions'],
  ['observation.questions', 'PENDING_INTERNAL_APPROVAL', 'questions.approval'],
  ['observation.questions', 'PENDING_EXTERNAL_APPROVAL', 'questions.approval'],
  ['clinical.location', 'REGISTERED', 'location'],
  ['clinical.location', 'PENDING_INTERNAL_REVIEW', 'location.review'],
  ['clinical.location', 'PENDING_EXTERNAL_REVIEW', 'location.review'],
  ['clinical.differential', 'REGISTERED', 'differential'],
  ['conversation.annotation', 'REGISTERED', 'conversation.annotation'],
  ['condition.medications', 'PENDING_APPROVAL', 'medications'],
  ['condition.symptoms', 'PENDING_APPROVAL', 'symptoms'],
];

describe('task screen selection (spec 3 §2): each step names the screen its task is shown on', () => {
  it.each(SELECTION)('%s in %s → %s', (type, state, screen) => {
    expect(screenOf(type, state)).toBe(screen);
  });

  it('the selection table covers every step of every pipeline', () => {
    const steps = PIPELINES.flatMap((p) =>
      p.definition.main.steps.map((step) => `${p.type} ${step.state}`),
    );
    expect(steps.sort()).toEqual(SELECTION.map(([type, state]) => `${type} ${state}`).sort());
  });
});
