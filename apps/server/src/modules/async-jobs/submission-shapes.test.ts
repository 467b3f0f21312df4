import { SUBMISSIONS, type SubmissionKind } from '@loopdesk/contracts/async-jobs.ts';
import { describe, expect, it } from 'vitest';
import { SUBMISSION_SHAPES } from './submission-shapes.ts';

describe('the shapes a wrong-shaped submission is told about', () => {
  it.each(Object.keys(SUBMISSIONS) as SubmissionKind[])(
    '%s names every field of its schema',
    (kind) => {
      const fields = Object.keys(SUBMISSIONS[kind].shape);
      const named = [...SUBMISSION_SHAPES[kind].matchAll(/\{ (\w+)|, (\w+):/g)]
        .map((match) => match[1] ?? match[2])
        .filter((field) => field !== undefined);
      expect(
        fields.every((field) => named.includes(field)),
        SUBMISSION_SHAPES[kind],
      ).toBe(true);
    },
  );
});
