import { sql, type RawBuilder } from 'kysely';
import type { AnalyticsFilters, Percentiles } from '@loopdesk/contracts/analytics.ts';
import type { Database } from '../../platform/db/database.ts';
import { BUCKET_BASE } from './hour-rollups.ts';

/**
 * What the dashboard's queries (figures.ts and its parts) share: row reading, percentiles, the
 * filters' SQL, and how a range splits into whole days (read from rollups) and partial edges
 * (read from the jobs). Every duration is in seconds; exact percentiles are PostgreSQL's
 * percentile_cont (linear interpolation between the two nearest samples).
 */

export type Row = Record<string, unknown>;

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export const num = (value: unknown): number =>
  value === null || value === undefined ? 0 : Number(value);

export const iso = (value: unknown) => new Date(value as string).toISOString();

const round3 = (v: number | null | undefined) =>
  v === null || v === undefined ? null : Math.round(v * 1000) / 1000;

/** `[p50, p90, p99]` of percentile_cont as a number array (pg gives numbers, maybe strings). */
export function percentiles(count: unknown, values: unknown): Percentiles {
  const list = Array.isArray(values) ? values.map((v) => (v === null ? null : Number(v))) : [];
  return { count: num(count), p50: round3(list[0]), p90: round3(list[1]), p99: round3(list[2]) };
}

const P = sql.raw('array[0.5, 0.9, 0.99]');
export const pct = (expression: RawBuilder<unknown>) =>
  sql`percentile_cont(${P}) within group (order by (${expression})::float8)`;

/** The `and …` of the filters that apply to a table with these columns. */
export function where(
  filters: AnalyticsFilters,
  columns: readonly ('type' | 'queue' | 'tenant')[],
  alias?: string,
) {
  const parts = columns
    .filter((column) => filters[column] !== undefined)
    .map(
      (column) => sql`and ${sql.ref(alias ? `${alias}.${column}` : column)} = ${filters[column]}`,
    );
  return parts.length ? sql.join(parts, sql` `) : sql``;
}

/** The whole units (days, hours) of a range: `[first, last)`, empty when first ≥ last. */
export function wholeUnits(from: Date, to: Date, unit: number) {
  const first = new Date(Math.ceil(from.getTime() / unit) * unit);
  const last = new Date(Math.floor(to.getTime() / unit) * unit);
  return { first, last, whole: first.getTime() < last.getTime() };
}

/**
 * The analytics_jobs rows of a range's partial edges by `column` (the range itself when it holds
 * no whole unit): two index range scans (an "or" of the two would read every job between).
 */
export function edgeJobs(
  column: 'created_at' | 'answered_at',
  from: Date,
  to: Date,
  units: ReturnType<typeof wholeUnits>,
  filter: RawBuilder<unknown> = sql``,
) {
  const c = sql.ref(column);
  const part = (a: Date, b: Date) =>
    sql`select * from analytics_jobs where ${c} >= ${a} and ${c} < ${b} ${filter}`;
  return units.whole
    ? sql`${part(from, units.first)} union all ${part(units.last, to)}`
    : part(from, to);
}

/** percentile_cont's interpolation over a histogram's buckets (each value its bucket's middle). */
export function fromHistogram(histogram: [number, number][], n: number, p: number): number | null {
  if (n === 0) {
    return null;
  }
  const middle = (bucket: number) => Math.pow(BUCKET_BASE, bucket + 0.5) - 1;
  const at = (index: number) => {
    let seen = 0;
    for (const [bucket, jobs] of histogram) {
      seen += jobs;
      if (index < seen) {
        return middle(bucket);
      }
    }
    return middle(histogram.at(-1)?.[0] ?? 0);
  };
  const position = p * (n - 1);
  const low = Math.floor(position);
  const lower = at(low);
  return lower + (at(Math.ceil(position)) - lower) * (position - low);
}

/** p50/p90/p99 of a histogram, with its count. */
export function histogramPercentiles(histogram: [number, number][] | undefined) {
  const list = histogram ?? [];
  const n = list.reduce((sum, [, jobs]) => sum + jobs, 0);
  return { n, values: [0.5, 0.9, 0.99].map((p) => fromHistogram(list, n, p)) };
}

/**
 * A histogram being merged from packed ones (migration 027): each a `bytea` of 6-byte pairs in
 * ascending buckets, the bucket a big-endian int16 and its jobs a big-endian int32 (made by
 * `packed` in hour-rollups.ts). Read straight from the bytes, where a PostgreSQL array would be
 * parsed from its text form character by character (most of a month's view, bench/README.md).
 */
export class Histogram {
  /** Jobs per bucket, by bucket. */
  private readonly jobs: number[] = [];

  add(packed: Uint8Array | null | undefined): this {
    if (!packed) {
      return this;
    }
    const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    for (let i = 0; i + 6 <= packed.byteLength; i += 6) {
      const bucket = view.getInt16(i);
      this.jobs[bucket] = (this.jobs[bucket] ?? 0) + view.getInt32(i + 2);
    }
    return this;
  }

  /** `[bucket, jobs]` in ascending buckets. */
  entries(): [number, number][] {
    const entries: [number, number][] = [];
    this.jobs.forEach((jobs, bucket) => {
      if (jobs) {
        entries.push([bucket, jobs]);
      }
    });
    return entries;
  }

  percentiles() {
    return histogramPercentiles(this.entries());
  }
}

/**
 * Runs a query that sorts many rows (percentiles) with room to sort in memory: PostgreSQL's
 * default work_mem (4 MB) sends a month of per-job durations to disk (bench/README.md).
 */
export function sorting<T>(db: Database, query: RawBuilder<T>) {
  return db.transaction().execute(async (trx) => {
    await sql`set local work_mem = '64MB'`.execute(trx);
    return query.execute(trx);
  });
}
