import { z } from 'zod';

/**
 * A required text, trimmed, of at most `max` characters. Error messages follow the field's path
 * (`body.query must not be empty`), so they do not name the field again.
 */
export const trimmed = (what: string, max?: number) => {
  const text = z
    .string({ message: `is required: ${what}` })
    .trim()
    .min(1, { message: 'must not be empty' });
  return max === undefined ? text : text.max(max, { message: `must be at most ${max} characters` });
};
