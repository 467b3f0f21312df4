import { describe, expect, it } from 'vitest';
import { waitingText } from './waiting.ts';

describe('waitingText', () => {
  const since = '2026-11-26T08:00:00.000Z';
  const at = (minutes: number) => Date.parse(since) + minutes * 60_000;

  it('says how long the patient has waited, in minutes and then hours', () => {
    expect(waitingText(since, at(0.5))).toBe('Waiting less than a minute');
    expect(waitingText(since, at(12))).toBe('Waiting 12 min');
    expect(waitingText(since, at(125))).toBe('Waiting 2 h 05 min');
  });

  it('says only "Waiting" without a time', () => {
    expect(waitingText(undefined, at(5))).toBe('Waiting');
  });
});
