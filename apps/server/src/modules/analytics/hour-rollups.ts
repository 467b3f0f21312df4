import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../platform/db/database.ts';

/**
 * The histogram rollups of the refresh (rollups.ts), per hour and per day (migration 027): a long
 * range's view reads its whole days from the day rows, the whole hours of its partial edge days
 * from the hour rows, and only the jobs of its partial edge hours (durations.ts).
 */

/** Hours and days are counted in UTC. */
export const ORIGIN = sql`timestamptz '2000-01-01 00:00:00+00'`;

/**
 * Duration histograms: a value v ≥ 0 seconds falls in bucket ⌊ln(1 + v) ÷ ln(1.02)⌋, 2% wide; its
 * bucket's middle stands for it (query.ts), within 1% of the value.
 */
export const BUCKET_BASE = 1.02;
export const bucketOf = (value: RawBuilder<unknown>) =>
  sql`floor(ln(1 + greatest(${value}, 0)) / ln(${sql.lit(BUCKET_BASE)}))::int`;

export const hourOf = (column: string) => sql`date_bin('1 hour', ${sql.ref(column)}, ${ORIGIN})`;

/** The UTC day of an ISO time, as an ISO time. */
export const dayOf = (iso: string) => `${iso.slice(0, 10)}T00:00:00.000Z`;

/**
 * The aggregate that packs a group's rows of `bucket` and `jobs` into one histogram (migration
 * 027): 6-byte pairs in ascending buckets, a big-endian int16 bucket and int32 jobs (rows of a
 * null bucket left out; no rows, no bytes). query.ts's Histogram reads them.
 */
export const packed = sql`coalesce(string_agg(int2send(bucket::int2) || int4send(jobs), ''::bytea
  order by bucket) filter (where bucket is not null), ''::bytea)`;

/** A change of one bucket of a duration histogram: jobs added (or taken away, below zero). */
export interface DurationChange {
  /** The arrival hour, an ISO time. */
  readonly hour: string;
  readonly type: string;
  readonly metric: 'wait' | 'handle' | 'total';
  readonly bucket: number;
  readonly jobs: number;
}

/**
 * The contributions of jobs to the duration histograms (one per metric with a value), summed by
 * arrival hour, job type, metric and bucket: `${rows}` a relation of `created_at`, `type`,
 * `wait_s`, `handle_s`, `total_s` and `sign` (+1 a job's new row, -1 its old one).
 */
export const durationChanges = (rows: RawBuilder<unknown>) => sql`
  select ${hourOf('created_at')} as hour, type, m.metric, ${bucketOf(sql`m.value`)} as bucket,
    sum(sign)::int as jobs
  from ${rows} c
  cross join lateral (values ('wait', c.wait_s), ('handle', c.handle_s), ('total', c.total_s))
    as m (metric, value)
  where m.value is not null
  group by 1, 2, 3, 4`;

/**
 * The wait, handle and end-to-end histograms of the hours and days these changes fall in, each
 * its stored histogram plus the changes (the jobs' rows as they were taken away, as they are now
 * added): what rebuilding it from all its jobs gives, at the cost of the changed jobs, not of
 * every job of the hour and the day (at 100 jobs/s, 360,000 an hour).
 */
export async function applyDurationChanges(trx: Database, changes: readonly DurationChange[]) {
  const byDay = new Map<string, DurationChange>();
  for (const change of changes) {
    const day = dayOf(change.hour);
    const key = `${day}|${change.type}|${change.metric}|${change.bucket}`;
    const sum = byDay.get(key);
    byDay.set(key, { ...change, hour: day, jobs: (sum?.jobs ?? 0) + change.jobs });
  }
  const apply = async (
    table: 'analytics_durations_hourly' | 'analytics_durations',
    unit: 'hour' | 'day',
    rows: readonly DurationChange[],
  ) => {
    const moved = rows.filter((row) => row.jobs !== 0);
    if (moved.length === 0) {
      return;
    }
    const t = sql.table(table);
    const u = sql.ref(unit);
    const stored = sql.ref(`s.${unit}`);
    await sql`
      with changes as (
        select * from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb)
          as x(hour timestamptz, type text, metric text, bucket integer, jobs integer)
      ),
      keys as (select distinct hour, type, metric from changes),
      -- The stored histograms of those keys taken out, as (bucket, jobs) pairs (migration 027).
      taken as (
        delete from ${t} s using keys k
        where ${stored} = k.hour and s.type = k.type and s.metric = k.metric
        returning ${stored} as hour, s.type, s.metric, s.histogram
      ),
      pairs as (
        select hour, type, metric, get_byte(histogram, i) * 256 + get_byte(histogram, i + 1) as bucket,
          ('x' || encode(substring(histogram from i + 3 for 4), 'hex'))::bit(32)::int as jobs
        from taken cross join lateral generate_series(0, length(histogram) - 1, 6) i
        union all
        select hour, type, metric, bucket, jobs from changes
      )
      insert into ${t} (${u}, type, metric, histogram)
      select hour, type, metric, ${packed}
      from (
        select hour, type, metric, bucket, sum(jobs)::int as jobs from pairs
        group by 1, 2, 3, 4 having sum(jobs) <> 0
      ) x
      group by hour, type, metric`.execute(trx);
  };
  await apply('analytics_durations_hourly', 'hour', changes);
  await apply('analytics_durations', 'day', [...byDay.values()]);
}

/**
 * Per technician, from the hour of `since` on (answers are never moved back in time): answers,
 * exceptions and the handle histogram per answer hour, from the jobs; then per day from the day
 * of `since` on: the counts summed from the hour rows (active hours: one row per hour with an
 * answer), the handle histogram from the jobs.
 */
export async function refreshPeople(trx: Database, since: Date) {
  const fromHour = sql`date_bin('1 hour', ${since}::timestamptz, ${ORIGIN})`;
  await sql`delete from analytics_people where hour >= ${fromHour}`.execute(trx);
  await sql`
    insert into analytics_people (hour, user_id, jobs, exceptions, handle)
    select hour, user_id, sum(jobs)::int, sum(exceptions)::int, ${packed}
    from (
      -- Answers without a handle time (no delivery seen) count, in no bucket.
      select ${hourOf('answered_at')} as hour, answered_by as user_id,
        case when handle_s is not null then ${bucketOf(sql`handle_s`)} end as bucket,
        count(*)::int as jobs, count(*) filter (where exception)::int as exceptions
      from analytics_jobs where answered_at >= ${fromHour} and answered_by is not null
      group by 1, 2, 3
    ) x
    group by hour, user_id`.execute(trx);
  const fromDay = sql`date_bin('1 day', ${since}::timestamptz, ${ORIGIN})`;
  const dayOfAnswer = sql`date_bin('1 day', answered_at, ${ORIGIN})`;
  await sql`delete from analytics_people_daily where day >= ${fromDay}`.execute(trx);
  await sql`
    insert into analytics_people_daily (day, user_id, jobs, hours, exceptions, handle)
    select d.day, d.user_id, d.jobs, d.hours, d.exceptions, coalesce(h.handle, ''::bytea)
    from (
      select date_bin('1 day', hour, ${ORIGIN}) as day, user_id, sum(jobs)::int as jobs,
        count(*)::int as hours, sum(exceptions)::int as exceptions
      from analytics_people where hour >= ${fromDay} group by 1, 2
    ) d
    left join (
      select day, user_id, ${packed} as handle from (
        select ${dayOfAnswer} as day, answered_by as user_id, ${bucketOf(sql`handle_s`)} as bucket,
          count(*)::int as jobs
        from analytics_jobs
        where answered_at >= ${fromDay} and answered_by is not null and handle_s is not null
        group by 1, 2, 3
      ) x group by day, user_id
    ) h on h.day = d.day and h.user_id = d.user_id`.execute(trx);
}
