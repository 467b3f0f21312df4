/**
 * bench/cluster's tail figures: where the slow jobs of a run sit in time (windows of the run whose
 * p99 is over the goal, and the node's background work that ran then), and what PostgreSQL was
 * doing meanwhile (pg_stat_activity sampled: the statements seen running, the share of samples each
 * was seen in, and what they waited on). The local PostgreSQL has no pg_stat_statements (it needs
 * a server restart), so the sampler stands in for it: a statement's share of the samples is its
 * share of the database's busy time.
 */
import pg from 'pg';

/** A frame's arrival (ms on the run's clock, from its start) and its enqueue → frame latency. */
export type Arrival = readonly [atMs: number, latencyMs: number];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * One line per window of `windowMs` whose p99 is above `goalMs` (at most `limit`, the worst
 * first), with the window's start in seconds, its jobs, p50, p99 and max; and the share of all
 * jobs over the goal that fell in these windows.
 */
export function tailWindows(
  arrivals: readonly Arrival[],
  windowMs: number,
  goalMs: number,
  limit = 12,
): string[] {
  const windows = new Map<number, number[]>();
  for (const [at, latency] of arrivals) {
    const w = Math.floor(at / windowMs);
    const list = windows.get(w);
    if (list) {
      list.push(latency);
    } else {
      windows.set(w, [latency]);
    }
  }
  const rows = [...windows.entries()].map(([w, list]) => {
    const sorted = list.sort((a, b) => a - b);
    return {
      at: (w * windowMs) / 1000,
      n: sorted.length,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      over: sorted.filter((l) => l > goalMs).length,
    };
  });
  const bad = rows.filter((r) => r.p99 > goalMs).sort((a, b) => b.p99 - a.p99);
  const overAll = rows.reduce((sum, r) => sum + r.over, 0);
  const overBad = bad.reduce((sum, r) => sum + r.over, 0);
  const lines = [
    `tail_windows_over_goal: ${bad.length} of ${rows.length} windows of ${windowMs / 1000} s have p99 > ${goalMs} ms; they hold ${overBad} of the ${overAll} jobs over ${goalMs} ms`,
  ];
  // Periodic work shows as jobs over the goal gathered at one phase of its period: the 15 s of
  // the heartbeat and the lease sweep, the 30 s of the analytics refresh (phases in seconds).
  for (const period of [15, 30]) {
    const bins = Array.from({ length: period }, () => 0);
    for (const [at, latency] of arrivals) {
      if (latency > goalMs) {
        const bin = Math.floor((at / 1000) % period);
        bins[bin] = (bins[bin] ?? 0) + 1;
      }
    }
    lines.push(`tail_over_goal_by_phase_of_${period}_s: ${bins.join(' ')}`);
  }
  for (const r of bad.slice(0, limit)) {
    lines.push(
      `tail_window_at_s ${r.at.toFixed(0)}: ${r.n} jobs, p50 ${r.p50.toFixed(1)}, p99 ${r.p99.toFixed(1)}, max ${r.max.toFixed(1)} ms, ${r.over} over goal`,
    );
  }
  return lines;
}

/** A statement's text reduced to its shape: literals and whitespace folded, cut short. */
function shape(query: string): string {
  return query
    .replace(/\s+/g, ' ')
    .replace(/'[^']*'/g, "'?'")
    .replace(/\b\d+(\.\d+)?\b/g, '?')
    .trim()
    .slice(0, 110);
}

/**
 * Samples pg_stat_activity of one database every `everyMs` from its own connection: for each
 * statement shape, the samples it was seen running in, and its wait events; and when (ms from
 * `start`) each statement that ran longer than `longMs` was seen.
 */
export function activitySampler(adminUrl: string, database: string, everyMs: number) {
  const client = new pg.Client({ connectionString: adminUrl });
  const connected = client.connect();
  const seen = new Map<string, { samples: number; waits: Map<string, number> }>();
  const long: { at: number; ms: number; query: string }[] = [];
  let samples = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;
  let started = 0;
  async function poll(): Promise<void> {
    if (busy) {
      return;
    }
    busy = true;
    try {
      const { rows } = await client.query<{
        query: string;
        wait: string | null;
        ms: number;
      }>(
        `select query, wait_event_type || ':' || wait_event as wait,
           (extract(epoch from clock_timestamp() - query_start) * 1000)::float8 as ms
         from pg_stat_activity
         where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
        [database],
      );
      samples += 1;
      for (const row of rows) {
        const key = shape(row.query);
        const entry = seen.get(key) ?? { samples: 0, waits: new Map<string, number>() };
        entry.samples += 1;
        const wait = row.wait ?? 'cpu';
        entry.waits.set(wait, (entry.waits.get(wait) ?? 0) + 1);
        seen.set(key, entry);
        if (row.ms > 100) {
          long.push({ at: performance.now() - started, ms: row.ms, query: key.slice(0, 60) });
        }
      }
    } finally {
      busy = false;
    }
  }
  return {
    async start(): Promise<void> {
      await connected;
      started = performance.now();
      timer = setInterval(() => void poll().catch(() => undefined), everyMs);
    },
    /** The top statements by samples, and the statements seen running over 100 ms. */
    async stop(limit = 12): Promise<string[]> {
      clearInterval(timer);
      await client.end();
      const total = [...seen.values()].reduce((sum, e) => sum + e.samples, 0);
      const lines = [
        `pg_activity_samples: ${samples} every ${everyMs} ms; ${(total / Math.max(1, samples)).toFixed(2)} statements running on average`,
      ];
      const top = [...seen.entries()].sort((a, b) => b[1].samples - a[1].samples).slice(0, limit);
      for (const [query, entry] of top) {
        const waits = [...entry.waits.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([w, n]) => `${w} ${((100 * n) / entry.samples).toFixed(0)}%`)
          .join(', ');
        lines.push(
          `pg_top ${((100 * entry.samples) / Math.max(1, total)).toFixed(1)}% (${entry.samples}; ${waits}): ${query}`,
        );
      }
      // Statements seen running over 100 ms, grouped by the second they were seen in.
      const bySecond = new Map<number, Set<string>>();
      for (const l of long) {
        const s = Math.floor(l.at / 1000);
        const set = bySecond.get(s) ?? new Set<string>();
        set.add(`${l.query} (${l.ms.toFixed(0)} ms)`);
        bySecond.set(s, set);
      }
      for (const [s, set] of [...bySecond.entries()].slice(0, 30)) {
        lines.push(`pg_long_at_s ${s}: ${[...set].slice(0, 3).join(' | ')}`);
      }
      return lines;
    },
  };
}
