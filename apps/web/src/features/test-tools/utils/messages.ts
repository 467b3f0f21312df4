import { HttpError } from '../../../lib/http-error.ts';

/** Spec 3 §8: the evaluation (entity recognition) call failed. */
export const EVALUATION_ERROR = 'Service unavailable';

/** Spec 3 §8: the differential call failed. */
export const PREDICTION_ERROR = 'Clinical Inference service unavailable';

/** Spec 3 §8: the test tool's observation lookup failed. */
export const OBSERVATION_LOOKUP_ERROR = 'Service unavailable';

/**
 * The toast of a failed test-tool call. The service being down, or not answering, is the spec's
 * message (`unavailable`, spec 3 §8); a request the server refused (4xx: an empty text, a text
 * over the limit, a weight out of range) is its own HTTP error, '{error} - {message}' (spec 1 §8),
 * which says what to change.
 */
export function failureMessage(error: unknown, unavailable: string): string {
  return error instanceof HttpError && error.status >= 400 && error.status < 500 && error.body
    ? error.message
    : unavailable;
}
