import { useCallback, useEffect, useRef } from 'react';

/**
 * A submit key pressed within this many milliseconds of a step appearing is ignored (issue 20 "no
 * reword sent unread"): the second of two quick Ctrl+Enter would otherwise send the step that the
 * first one opened (the reword question, the next job) before anyone read it.
 */
export const STEP_GUARD_MS = 500;

/** The guard's clock (a test makes its steps read by moving it on). */
export const stepClock = { now: (): number => performance.now() };

/** The parts of a key event the guard reads. */
interface SubmitKey {
  readonly repeat: boolean;
}

/**
 * Whether a submit key may act on the step shown: not a key repeat (a held key), and not within
 * {@link STEP_GUARD_MS} of the step appearing. A step appears when the component mounts and again
 * each time `step` changes (the reword step after the annotation, Back to the annotation).
 */
export function useStepGuard(step: unknown = null): (event: SubmitKey) => boolean {
  const shownAt = useRef(Number.POSITIVE_INFINITY);
  useEffect(() => {
    shownAt.current = stepClock.now();
  }, [step]);
  return useCallback(
    (event: SubmitKey) => !event.repeat && stepClock.now() - shownAt.current >= STEP_GUARD_MS,
    [],
  );
}
