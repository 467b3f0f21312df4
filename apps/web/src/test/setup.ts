import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';
import { resetSession } from '../lib/auth/session.ts';
import { STEP_GUARD_MS, stepClock } from '../workbench/hooks/use-step-guard.ts';

/**
 * MUI's ripple finishes its animation on a timer after a click; React reports that state update
 * as "not wrapped in act". It is a test-environment artefact, not a console error of the portal.
 */
function isRippleActWarning(args: unknown[]): boolean {
  return (
    typeof args[0] === 'string' &&
    args[0].includes('not wrapped in act') &&
    args.some((arg) => typeof arg === 'string' && arg.includes('TouchRipple'))
  );
}

/**
 * Screens are lazy-loaded chunks: on a busy two-core CI machine the first import of one can take
 * seconds, so findBy and waitFor wait up to 5 s (the default 1 s made tests fail under load).
 */
configure({ asyncUtilTimeout: 5_000 });

let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  localStorage.clear();
  // The portal must run without console errors: any one fails the test that caused it.
  consoleError = vi.spyOn(console, 'error');
  // A test's user reads every step before a submit key (the 500 ms guard of issue 20): each
  // reading of the guard's clock is a little more than the guard later. Tests of the guard itself
  // keep the clock still (panel-test-kit `readEveryStep(true)`).
  let now = 0;
  vi.spyOn(stepClock, 'now').mockImplementation(() => (now += STEP_GUARD_MS + 1));
});

afterEach(() => {
  cleanup();
  resetSession();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  const calls = consoleError.mock.calls.filter((args) => !isRippleActWarning(args));
  consoleError.mockRestore();
  expect(calls, 'console.error was called').toEqual([]);
});
