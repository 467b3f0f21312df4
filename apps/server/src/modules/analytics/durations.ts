import { sql } from 'kysely';
import type { AnalyticsFilters } from '@loopdesk/contracts/analytics.ts';
import type { Database } from '../../platform/db/database.ts';
import { bucketOf, packed } from './hour-rollups.ts';
import {
  DAY_MS,
  edgeJobs,
  HOUR_MS,
  Histogram,
  pct,
  sorting,
  where,
  wholeUnits,
  type Row,
} from './query.ts';

/**
 * Wait, handle and end-to-end p50/p90/p99 per job type. Exact (percentile_cont over the jobs)
 * for ranges of less than two whole UTC days or with a queue or tenant filter (a tenant's jobs
 * read by index, migration 026); otherwise from the day histograms of the whole days in the range
 * (analytics_durations), the hour histograms of the whole hours of its partial edge days
 * (analytics_durations_hourly, 027) and the jobs of its partial edge hours, put in the same 2%
 * buckets: each percentile within about 1% of the exact one (docs/analytics.md), and the cost no
 * longer grows with the jobs of the range.
 */
export async function durations(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  const days = wholeUnits(from, to, DAY_MS);
  if (
    filters.queue !== undefined ||
    filters.tenant !== undefined ||
    days.last.getTime() - days.first.getTime() < 2 * DAY_MS
  ) {
    return sorting(
      db,
      sql<Row>`
      select type,
        count(wait_s) as wait_n, ${pct(sql`wait_s`)} as wait,
        count(handle_s) as handle_n, ${pct(sql`handle_s`)} as handle,
        count(total_s) as total_n, ${pct(sql`total_s`)} as total
      from analytics_jobs where created_at >= ${from} and created_at < ${to}
        ${where(filters, ['type', 'queue', 'tenant'])}
      group by type order by type`,
    );
  }
  const type = where(filters, ['type']);
  const hours = wholeUnits(from, to, HOUR_MS);
  const result = await sql<{ type: string; metric: string; histogram: Uint8Array }>`
    select type, metric, histogram from analytics_durations
    where day >= ${days.first} and day < ${days.last} ${type}
    union all
    select type, metric, histogram from analytics_durations_hourly
    where hour >= ${hours.first} and hour < ${days.first} ${type}
    union all
    select type, metric, histogram from analytics_durations_hourly
    where hour >= ${days.last} and hour < ${hours.last} ${type}
    union all
    select type, metric, ${packed} from (
      select j.type, m.metric, ${bucketOf(sql`m.value`)} as bucket, count(*)::int as jobs
      from (${edgeJobs('created_at', from, to, hours, type)}) j
      cross join lateral (values ('wait', j.wait_s), ('handle', j.handle_s), ('total', j.total_s))
        as m (metric, value)
      where m.value is not null
      group by 1, 2, 3
    ) e group by type, metric
    order by type`.execute(db);
  const types = new Map<string, Map<string, Histogram>>();
  for (const row of result.rows) {
    const metrics = types.get(row.type) ?? new Map<string, Histogram>();
    types.set(row.type, metrics);
    const histogram = metrics.get(row.metric) ?? new Histogram();
    metrics.set(row.metric, histogram.add(row.histogram));
  }
  return {
    rows: [...types].map(([t, metrics]): Row => {
      const [wait, handle, total] = ['wait', 'handle', 'total'].map((m) =>
        (metrics.get(m) ?? new Histogram()).percentiles(),
      );
      return {
        type: t,
        wait_n: wait?.n,
        wait: wait?.values,
        handle_n: handle?.n,
        handle: handle?.values,
        total_n: total?.n,
        total: total?.values,
      };
    }),
  };
}

/**
 * Per technician: jobs answered, active hours, handle p50/p90/p99 and exceptions. Exact for short
 * ranges or with a type, queue or tenant filter; otherwise in one read of the people rollups
 * (027): a row per technician and whole day of the range (analytics_people_daily, which keeps the
 * day's active hours), per technician and whole hour of its partial edge days (analytics_people),
 * and the jobs of its partial edge hours grouped per hour and technician, each row with its handle
 * histogram (the percentiles within about 1%, as the durations'; the counts exact). The hours of
 * the three parts never overlap, so active hours are the sum of the rows' hours. The rows come in
 * the order of the names (PostgreSQL's, as the exact path's) and are summed here.
 */
export async function people(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  const days = wholeUnits(from, to, DAY_MS);
  if (
    filters.type !== undefined ||
    filters.queue !== undefined ||
    filters.tenant !== undefined ||
    days.last.getTime() - days.first.getTime() < 2 * DAY_MS
  ) {
    return sorting(
      db,
      sql<Row>`
      select j.answered_by as user_id, coalesce(u.display_name, u.email, j.answered_by::text) as name,
        count(*)::int as jobs,
        count(distinct date_bin('1 hour', j.answered_at, timestamptz '2000-01-01 00:00:00+00'))::int as hours,
        count(j.handle_s) as handle_n, ${pct(sql`j.handle_s`)} as handle,
        count(*) filter (where j.exception)::int as exceptions
      from analytics_jobs j left join users u on u.id = j.answered_by
      where j.answered_at >= ${from} and j.answered_at < ${to} and j.answered_by is not null
        ${where(filters, ['type', 'queue', 'tenant'], 'j')}
      group by j.answered_by, u.display_name, u.email order by name`,
    );
  }
  const hours = wholeUnits(from, to, HOUR_MS);
  const answered = sql`and answered_by is not null`;
  const parts = await sql<{
    user_id: string;
    name: string;
    jobs: number;
    hours: number;
    exceptions: number;
    handle: Uint8Array;
  }>`
    with edge as (${edgeJobs('answered_at', from, to, hours, answered)}),
    r as (
      select user_id, jobs, hours, exceptions, handle from analytics_people_daily
      where day >= ${days.first} and day < ${days.last}
      union all
      select user_id, jobs, 1, exceptions, handle from analytics_people
      where hour >= ${hours.first} and hour < ${days.first}
      union all
      select user_id, jobs, 1, exceptions, handle from analytics_people
      where hour >= ${days.last} and hour < ${hours.last}
      union all
      select answered_by, count(*)::int, 1, count(*) filter (where exception)::int, ''::bytea
      from edge group by date_bin('1 hour', answered_at, timestamptz '2000-01-01 00:00:00+00'),
        answered_by
      union all
      select user_id, 0, 0, 0, ${packed} from (
        select answered_by as user_id, ${bucketOf(sql`handle_s`)} as bucket, count(*)::int as jobs
        from edge where handle_s is not null group by 1, 2
      ) e group by user_id
    )
    select r.user_id, coalesce(u.display_name, u.email, r.user_id::text) as name, r.jobs, r.hours,
      r.exceptions, r.handle
    from r left join users u on u.id = r.user_id
    order by name, r.user_id`.execute(db);
  const sums = new Map<
    string,
    { name: string; jobs: number; hours: number; exceptions: number; histogram: Histogram }
  >();
  for (const part of parts.rows) {
    const sum = sums.get(part.user_id) ?? {
      name: part.name,
      jobs: 0,
      hours: 0,
      exceptions: 0,
      histogram: new Histogram(),
    };
    sums.set(part.user_id, sum);
    sum.jobs += part.jobs;
    sum.hours += part.hours;
    sum.exceptions += part.exceptions;
    sum.histogram.add(part.handle);
  }
  return {
    rows: [...sums].map(([userId, sum]): Row => {
      const handle = sum.histogram.percentiles();
      return {
        user_id: userId,
        name: sum.name,
        jobs: sum.jobs,
        hours: sum.hours,
        exceptions: sum.exceptions,
        handle_n: handle.n,
        handle: handle.values,
      };
    }),
  };
}
