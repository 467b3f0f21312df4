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

/**
 * Wait, handle and end-to-end histograms of these arrival hours and of these days, each rebuilt
 * whole from its jobs.
 */
export async function refreshDurations(trx: Database, hours: string[], days: string[]) {
  if (hours.length === 0) {
    return;
  }
  const rebuild = async (
    table: 'analytics_durations_hourly' | 'analytics_durations',
    unit: 'hour' | 'day',
    units: string[],
  ) => {
    const t = sql.table(table);
    const u = sql.ref(unit);
    const of = sql`date_bin(${sql.lit(`1 ${unit}`)}, j.created_at, ${ORIGIN})`;
    await sql`delete from ${t} where ${u} = any(${units}::timestamptz[])`.execute(trx);
    await sql`
      insert into ${t} (${u}, type, metric, histogram)
      select unit, type, metric, ${packed}
      from (
        select ${of} as unit, j.type, m.metric, ${bucketOf(sql`m.value`)} as bucket,
          count(*)::int as jobs
        from analytics_jobs j
        cross join lateral (values ('wait', j.wait_s), ('handle', j.handle_s), ('total', j.total_s))
          as m (metric, value)
        where j.created_at >= ${units[0]}::timestamptz and ${of} = any(${units}::timestamptz[])
          and m.value is not null
        group by 1, 2, 3, 4
      ) x
      group by unit, type, metric`.execute(trx);
  };
  await rebuild('analytics_durations_hourly', 'hour', hours);
  await rebuild('analytics_durations', 'day', days);
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
