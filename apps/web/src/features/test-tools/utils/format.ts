import { MAX_OBSERVATION_WEIGHT } from '@loopdesk/contracts/intelligence.ts';

/** Spec 3 §9: default observation weight. */
export const DEFAULT_WEIGHT = 1;

/** Spec 3 §9: probability and relevance are shown to 2 decimals. */
export function formatScore(value: number): string {
  return value.toFixed(2);
}

/**
 * The weight a typed text stands for (spec 3 §5): a number, or DEFAULT_WEIGHT when the field is
 * blank or not a number.
 */
export function weightOf(text: string): number {
  if (text.trim() === '') {
    return DEFAULT_WEIGHT;
  }
  const value = Number(text);
  return Number.isFinite(value) ? value : DEFAULT_WEIGHT;
}

/** What is wrong with a typed weight, if anything: blank is fine (it means DEFAULT_WEIGHT). */
export function weightProblem(text: string): string | undefined {
  if (text.trim() === '') {
    return undefined;
  }
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= MAX_OBSERVATION_WEIGHT
    ? undefined
    : `A number from 0 to ${MAX_OBSERVATION_WEIGHT}`;
}
