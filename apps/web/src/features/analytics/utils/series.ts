import type { AnalyticsFigures } from '@loopdesk/contracts/analytics.ts';

const HOUR_MS = 3_600_000;

/** The hours (UTC starts) of a range: the chart's x axis, every hour shown even without work. */
export function hoursOf(from: string, to: string): Date[] {
  const start = Math.floor(Date.parse(from) / HOUR_MS) * HOUR_MS;
  const end = Date.parse(to);
  const hours: Date[] = [];
  for (let t = start; t < end && hours.length < 24 * 400; t += HOUR_MS) {
    hours.push(new Date(t));
  }
  return hours;
}

/**
 * Open jobs per queue at every hour of the range: the rollup lists only hours where a queue
 * changed, so each hour carries the last known count forward.
 */
export function depthSeries(figures: AnalyticsFigures): {
  hours: Date[];
  queues: Map<string, number[]>;
} {
  const hours = hoursOf(figures.filters.from, figures.filters.to);
  const byQueue = new Map<string, Map<number, number>>();
  for (const point of figures.queues.depth) {
    const points = byQueue.get(point.queue) ?? new Map<number, number>();
    points.set(Date.parse(point.hour), point.open);
    byQueue.set(point.queue, points);
  }
  const queues = new Map<string, number[]>();
  for (const [queue, points] of byQueue) {
    let last = 0;
    queues.set(
      queue,
      hours.map((hour) => {
        last = points.get(hour.getTime()) ?? last;
        return last;
      }),
    );
  }
  return { hours, queues };
}

/** Arrivals and completions at every hour of the range (0 where nothing happened). */
export function hourlySeries(figures: AnalyticsFigures) {
  const byHour = new Map(figures.queues.hourly.map((h) => [Date.parse(h.hour), h]));
  return hoursOf(figures.filters.from, figures.filters.to).map((hour) => ({
    hour,
    arrivals: byHour.get(hour.getTime())?.arrivals ?? 0,
    completions: byHour.get(hour.getTime())?.completions ?? 0,
  }));
}

/** Seconds as a short duration: 42 s, 3.5 min, 2.1 h. */
export function duration(seconds: number | null): string {
  if (seconds === null) {
    return '–';
  }
  if (seconds < 90) {
    return `${Math.round(seconds * 10) / 10} s`;
  }
  if (seconds < 5400) {
    return `${Math.round(seconds / 6) / 10} min`;
  }
  return `${Math.round(seconds / 360) / 10} h`;
}
