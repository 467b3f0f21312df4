/**
 * How long a stepwise build (a generator that yields every few milliseconds, issue 22) holds the
 * event loop: the generator driven step by step, each step timed (wall clock, and the processor
 * time of this thread, which a loaded machine does not inflate), with the garbage collections that
 * fell in it (a `PerformanceObserver` of `gc` entries). Shared by bench/typeahead and
 * bench/recognition.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';

export interface StepTimes {
  steps: number;
  totalMs: number;
  /** The longest steps, longest first: wall clock, thread CPU, and full collections in them. */
  longest: { ms: number; cpuMs: number; majorGcMs: number; otherGcMs: number }[];
  /** The longest step with no full (mark-compact) collection in it. */
  longestWithoutMajorGcMs: number;
  /**
   * By this thread's processor time (what a loaded machine does not inflate): the longest step,
   * and the longest with no full collection in it.
   */
  longestCpuMs: number;
  longestCpuWithoutMajorGcMs: number;
  /** Steps over 50 ms wall clock. */
  over50: number;
  /** Full collections during the build: how many, and the longest pause. */
  majorGcs: number;
  longestMajorGcMs: number;
}

/** Drives `steps` to the end, timing each step; returns the built value and the times. */
export async function timeSteps<T>(
  steps: Generator<void, T, void>,
): Promise<{ value: T; times: StepTimes }> {
  const gcs: { start: number; end: number }[] = [];
  const minors: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      const span = { start: entry.startTime, end: entry.startTime + entry.duration };
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gcs.push(span);
      } else {
        minors.push(span);
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const starts: number[] = [];
  const ends: number[] = [];
  const cpu: number[] = [];
  const began = performance.now();
  let value: T;
  for (;;) {
    const usage = process.threadCpuUsage();
    starts.push(performance.now());
    const step = steps.next();
    ends.push(performance.now());
    const used = process.threadCpuUsage(usage);
    cpu.push((used.user + used.system) / 1000);
    if (step.done) {
      value = step.value;
      break;
    }
  }
  const totalMs = performance.now() - began;
  // GC entries are delivered after the event loop turns.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const within = (spans: readonly { start: number; end: number }[], i: number): number => {
    let ms = 0;
    for (const gc of spans) {
      ms += Math.max(
        0,
        Math.min(gc.end, ends[i] as number) - Math.max(gc.start, starts[i] as number),
      );
    }
    return ms;
  };
  const majorIn = (i: number) => within(gcs, i);
  const all = starts.map((start, i) => ({
    ms: (ends[i] as number) - start,
    cpuMs: cpu[i] as number,
    majorGcMs: 0,
    otherGcMs: 0,
    i,
  }));
  const longest = [...all].sort((a, b) => b.ms - a.ms).slice(0, 3);
  for (const step of longest) {
    step.majorGcMs = majorIn(step.i);
    step.otherGcMs = within(minors, step.i);
  }
  let longestWithoutMajorGcMs = 0;
  let longestCpuMs = 0;
  let longestCpuWithoutMajorGcMs = 0;
  for (const step of all) {
    longestCpuMs = Math.max(longestCpuMs, step.cpuMs);
    if (
      (step.ms > longestWithoutMajorGcMs || step.cpuMs > longestCpuWithoutMajorGcMs) &&
      majorIn(step.i) === 0
    ) {
      longestWithoutMajorGcMs = Math.max(longestWithoutMajorGcMs, step.ms);
      longestCpuWithoutMajorGcMs = Math.max(longestCpuWithoutMajorGcMs, step.cpuMs);
    }
  }
  return {
    value,
    times: {
      steps: all.length,
      totalMs,
      longest: longest.map(({ ms, cpuMs, majorGcMs, otherGcMs }) => ({
        ms,
        cpuMs,
        majorGcMs,
        otherGcMs,
      })),
      longestWithoutMajorGcMs,
      longestCpuMs,
      longestCpuWithoutMajorGcMs,
      over50: all.filter((s) => s.ms > 50).length,
      majorGcs: gcs.length,
      longestMajorGcMs: Math.max(0, ...gcs.map((gc) => gc.end - gc.start)),
    },
  };
}

/** Prints the times as `name: value` lines under `prefix`. */
export function reportSteps(prefix: string, times: StepTimes): void {
  const ms = (v: number) => v.toFixed(1);
  console.log(`${prefix}.build_steps: ${times.steps} (${(times.totalMs / 1000).toFixed(1)} s)`);
  console.log(
    `${prefix}.longest_build_step_ms: ${times.longest
      .map(
        (s) =>
          `${ms(s.ms)} (cpu ${ms(s.cpuMs)}, gc: full ${ms(s.majorGcMs)}, other ${ms(s.otherGcMs)})`,
      )
      .join(', ')}`,
  );
  console.log(
    `${prefix}.longest_build_step_without_full_gc_ms: ${ms(times.longestWithoutMajorGcMs)}`,
  );
  console.log(
    `${prefix}.longest_build_step_cpu_ms: ${ms(times.longestCpuMs)} (without a full gc in it ${ms(times.longestCpuWithoutMajorGcMs)})`,
  );
  console.log(`${prefix}.build_steps_over_50_ms: ${times.over50}`);
  console.log(
    `${prefix}.build_full_gcs: ${times.majorGcs} (longest ${ms(times.longestMajorGcMs)} ms)`,
  );
}
