import type { z } from 'zod';
import type { SubmissionKind } from '@loopdesk/contracts/async-jobs.ts';
import { badRequest, type AppError } from '../../platform/errors.ts';

/** What each step's `data` is (docs/async-pipelines.md), for the message of a body of the wrong shape. */
export const SUBMISSION_SHAPES: Record<SubmissionKind, string> = {
  rephrase: '{ rephrases: [string] }',
  'rephrase.approval': '{ rephrases_removed: [string], rephrases: [string], intents: [string] }',
  annotation: '{ annotations: { entities: [entity] } }',
  'annotation.approval':
    '{ approved: { entities }, added: { entities }, modified: { entities }, deleted: { entities } }',
  normalisation: '{ normalised: { entities: [{ id, conceptId, conceptName, state }] } }',
  'normalisation.approval': '{ normalised: { entities: [{ id, conceptId, conceptName, state }] } }',
  observations: '{ observations: [{ observation, observationCUI, observationClass }] }',
  relationships: '{ removedObservations: [id], observations: [observation relationship] }',
  'relationships.approval':
    '{ removedObservations: [id], observations: [observation relationship] }',
  complications: '{ complications: [{ complication, complicationCUI }] }',
  'complications.approval':
    '{ complications_removed: [id], complications_restored: [id], complications: [{ complication, complicationCUI }] }',
  questions: '{ questions: [{ text }] }',
  'questions.approval':
    '{ questions_removed: [id], questions_restored: [id], questions: [{ text }] }',
  location: '{ locations: { pathologicalProcesses, bodySystems, anatomicalLocations } }',
  differential: '{ differential: [{ name, code, rank }] }',
  'conversation.annotation':
    '{ decodedObservations: [{ conceptId, name }], extendedObservations: [{ conceptId, name }] }',
  medications: '{ medications_removed: [id], medications: [{ text }] }',
  symptoms: '{ symptoms_removed: [id], symptoms: [{ text }] }',
};

/**
 * Maps zod issues of a body part to the error details (`body.data.questions.0.text`). One issue
 * with a message of the screens ('Please enter complication.') is that message; otherwise the
 * message names each path and, for a submission, the shape its step takes.
 */
export function invalid(prefix: string, error: z.ZodError, kind?: SubmissionKind): AppError {
  const details = error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const first = details[0];
  // The screens' messages are sentences; zod's own ('Invalid input: expected array…') are not.
  if (details.length === 1 && first?.message.endsWith('.')) {
    return badRequest(first.message, details);
  }
  const problems = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  const shape = kind ? ` A ${kind} submission is ${SUBMISSION_SHAPES[kind]}.` : '';
  return badRequest(`Invalid ${prefix}: ${problems}.${shape}`, details);
}
