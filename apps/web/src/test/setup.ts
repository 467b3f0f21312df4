import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest';
import { resetSession } from '../lib/auth/session.ts';

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

let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  localStorage.clear();
  // The portal must run without console errors: any one fails the test that caused it.
  consoleError = vi.spyOn(console, 'error');
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
