/**
 * bench/cluster's CPU and path figures: what each process spent per job (read from /proc, so the
 * figure is CPU time, not wall time on a loaded machine), and where a job's time goes inside a
 * node (the step histograms of /metrics: loopdesk_job_step_seconds, and the HTTP one).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU milliseconds (user + system) a process has used so far; NaN once it is gone. */
export function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) {
    return NaN;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: fields are counted after its closing paren.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return NaN;
  }
}

/**
 * The CPU the PostgreSQL backends of one database use: their pids are read from
 * pg_stat_activity each `poll`, and each backend's use is counted from the first time it was seen
 * (from zero for a backend that started after `start`). A backend that ends between two polls
 * loses what it used since the last one.
 */
export function postgresCpu(adminUrl: string, database: string) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let started = false;
  const client = new pg.Client({ connectionString: adminUrl });
  const connected = client.connect();
  async function poll(): Promise<void> {
    await connected;
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [database],
    );
    for (const { pid } of rows) {
      const used = cpuMsOf(pid);
      if (Number.isNaN(used)) {
        continue;
      }
      if (!first.has(pid)) {
        first.set(pid, started ? 0 : used);
      }
      last.set(pid, used);
    }
  }
  return {
    /** From now on, CPU counts. */
    async start(): Promise<void> {
      await poll();
      started = true;
    },
    poll,
    /** CPU milliseconds used since `start`. */
    used(): number {
      let sum = 0;
      for (const [pid, end] of last) {
        sum += end - (first.get(pid) ?? 0);
      }
      return sum;
    },
    async close(): Promise<void> {
      await connected;
      await client.end();
    },
  };
}

/**
 * The sum of a metric's samples in a Prometheus text exposition whose labels include `labels`
 * (all of them when none are given); NaN when none matches.
 */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}) {
  let sum = NaN;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) {
      continue;
    }
    const wanted = Object.entries(labels).every(([key, value]) =>
      line.includes(`${key}="${value}"`),
    );
    if (wanted) {
      sum = (Number.isNaN(sum) ? 0 : sum) + Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return sum;
}

/** The steps of a job's path a node times (loopdesk_job_step_seconds), in path order. */
export const STEPS = [
  'api.authenticate',
  'api.create',
  'api.announce',
  'hand-off.receive',
  'frame.send',
  'answer.check',
  'answer.complete',
  'answer.after',
  'dispatch.pass',
] as const;

/** What a node's /metrics said at one moment, for the figures of the path. */
export interface PathReading {
  cpuSeconds: number;
  http: { sum: number; count: number };
  steps: Record<string, { sum: number; count: number }>;
}

export function readPath(text: string): PathReading {
  const steps: PathReading['steps'] = {};
  for (const step of STEPS) {
    steps[step] = {
      sum: metricSum(text, 'loopdesk_job_step_seconds_sum', { step }),
      count: metricSum(text, 'loopdesk_job_step_seconds_count', { step }),
    };
  }
  const route = { route: '/api/v1/jobs', method: 'POST' };
  return {
    cpuSeconds: metricSum(text, 'process_cpu_seconds_total'),
    http: {
      sum: metricSum(text, 'loopdesk_http_request_duration_seconds_sum', route),
      count: metricSum(text, 'loopdesk_http_request_duration_seconds_count', route),
    },
    steps,
  };
}

/** `step: mean ms × count` lines between two readings of one node. */
export function pathLines(node: string, before: PathReading, after: PathReading): string[] {
  const mean = (a: { sum: number; count: number }, b: { sum: number; count: number }) => {
    const count = (b.count || 0) - (a.count || 0);
    const ms = count > 0 ? (((b.sum || 0) - (a.sum || 0)) * 1000) / count : NaN;
    return `${ms.toFixed(2)} ms × ${count}`;
  };
  const lines = [`node_${node}_path_http_post_jobs_mean: ${mean(before.http, after.http)}`];
  for (const step of STEPS) {
    const a = before.steps[step];
    const b = after.steps[step];
    if (a && b) {
      lines.push(`node_${node}_path_${step.replace(/[.-]/g, '_')}_mean: ${mean(a, b)}`);
    }
  }
  return lines;
}

export interface Sample {
  at: number;
  rss: number;
  heap: number;
  handles: number;
}

/** Resident memory, heap used and active handles, read from a node's /metrics. */
export async function sample(node: { baseUrl: string }): Promise<Sample | null> {
  const text = await fetch(`${node.baseUrl}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const read = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.split(' ')[1]) : NaN;
  };
  const rss = read('process_resident_memory_bytes');
  return Number.isNaN(rss)
    ? null
    : {
        at: performance.now(),
        rss,
        heap: read('nodejs_heap_size_used_bytes'),
        handles: read('nodejs_active_handles_total'),
      };
}

/** The average of the last third of the samples over the first third's (the soak). */
export function growth(
  samples: Sample[],
  key: keyof Omit<Sample, 'at'>,
): { text: string; ratio: number } {
  const third = Math.max(1, Math.floor(samples.length / 3));
  const mean = (s: Sample[]) => s.reduce((sum, x) => sum + x[key], 0) / s.length;
  const first = mean(samples.slice(0, third));
  const last = mean(samples.slice(-third));
  const unit = key === 'handles' ? 1 : 1024 * 1024;
  const digits = key === 'handles' ? 0 : 1;
  const ratio = last / first;
  return {
    text: `${(first / unit).toFixed(digits)} → ${(last / unit).toFixed(digits)} (${ratio.toFixed(2)}×)`,
    ratio,
  };
}
