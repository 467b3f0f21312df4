/**
 * Running a stepwise build (a generator that yields every few milliseconds of work) between other
 * work, so a server answers while a large knowledge base is indexed (issue 22): concept search
 * (`search/build.ts`) and the recogniser (`nlp/recognise.ts`).
 */

/** A build run in slices on the event loop. */
export interface BackgroundBuild<T> {
  /**
   * Settles when the build ends; rejects with its error when it fails. Already observed (a failed
   * build never becomes an unhandled rejection): callers that await it still get the error.
   */
  readonly ready: Promise<void>;
  /** The built value, the build finished at once (synchronously) when it was not done yet. */
  value(): T;
}

/** Runs the whole build at once. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  let step = steps.next();
  while (!step.done) {
    step = steps.next();
  }
  return step.value;
}

/**
 * Runs `steps` in slices of about `sliceMs` (default 10 ms), giving the event loop back between
 * them (a macrotask each, so timers and I/O run).
 */
export function inBackground<T>(steps: Generator<void, T, void>, sliceMs = 10): BackgroundBuild<T> {
  let built: { value: T } | undefined;
  let failure: Error | undefined;
  const run = (until: number): void => {
    if (failure) {
      throw failure;
    }
    try {
      while (!built) {
        const step = steps.next();
        if (step.done) {
          built = { value: step.value };
        } else if (performance.now() > until) {
          break;
        }
      }
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      throw failure;
    }
  };
  const ready = new Promise<void>((resolve, reject) => {
    const slice = () => {
      try {
        run(performance.now() + sliceMs);
      } catch {
        reject(failure ?? new Error('the build failed'));
        return;
      }
      if (built) {
        resolve();
      } else {
        setTimeout(slice, 0);
      }
    };
    setTimeout(slice, 0);
  });
  ready.catch(() => undefined);
  return {
    ready,
    value: () => {
      if (!built) {
        run(Infinity);
      }
      return (built as { value: T }).value;
    },
  };
}

/** Elements written between yields by `zeroed`. */
const ZEROED_STEP = 1 << 18;

/**
 * A new typed array of `length`, its memory written (with zeros) a part per step. A fresh large
 * buffer is mapped lazily: written first at random places (postings placed by bucket), every one
 * of its pages would be faulted in within one step.
 */
export function* zeroed<T extends Int32Array | Uint32Array | Uint16Array>(
  Type: new (length: number) => T,
  length: number,
): Generator<void, T, void> {
  const array = new Type(length);
  for (let from = 0; from < length; from += ZEROED_STEP) {
    array.fill(0, from, Math.min(length, from + ZEROED_STEP));
    yield;
  }
  return array;
}
