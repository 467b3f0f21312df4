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
 * Wait, handle and end-to-end histograms of these arrival hours (each rebuilt whole from its
 * jobs), then of these days, summed from their hours' histograms.
 */
export async function refreshDurations(trx: Database, hours: string[], days: string[]) {
  if (hours.length === 0) {
    return;
  }
  await sql`delete from analytics_durations_hourly where hour = any(${hours}::timestamptz[])`.execute(
    trx,
  );
  await sql`
    insert into analytics_durations_hourly (hour, type, metric, buckets, jobs)
    select hour, type, metric, array_agg(bucket order by bucket), array_agg(jobs order by bucket)
    from (
      select ${hourOf('j.created_at')} as hour, j.type, m.metric, ${bucketOf(sql`m.value`)} as bucket,
        count(*)::int as jobs
      from analytics_jobs j
      cross join lateral (values ('wait', j.wait_s), ('handle', j.handle_s), ('total', j.total_s))
        as m (metric, value)
      where j.created_at >= ${hours[0]}::timestamptz
        and ${hourOf('j.created_at')} = any(${hours}::timestamptz[]) and m.value is not null
      group by 1, 2, 3, 4
    ) x
    group by hour, type, metric`.execute(trx);
  await sql`delete from analytics_durations where day = any(${days}::timestamptz[])`.execute(trx);
  await sql`
    insert into analytics_durations (day, type, metric, buckets, jobs)
    select day, type, metric, array_agg(bucket order by bucket), array_agg(jobs order by bucket)
    from (
      select date_bin('1 day', h.hour, ${ORIGIN}) as day, h.type, h.metric, u.bucket,
        sum(u.jobs)::int as jobs
      from analytics_durations_hourly h
      cross join lateral unnest(h.buckets, h.jobs) as u (bucket, jobs)
      where h.hour >= ${days[0]}::timestamptz
        and date_bin('1 day', h.hour, ${ORIGIN}) = any(${days}::timestamptz[])
      group by 1, 2, 3, 4
    ) x
    group by day, type, metric`.execute(trx);
}

/**
 * Per technician, from the hour of `since` on (answers are never moved back in time): answers,
 * exceptions and the handle histogram per answer hour, rebuilt from the jobs; then per day from
 * the day of `since` on, summed from the hours (active hours: the hour rows, one per hour with an
 * answer).
 */
export async function refreshPeople(trx: Database, since: Date) {
  const fromHour = sql`date_bin('1 hour', ${since}::timestamptz, ${ORIGIN})`;
  await sql`delete from analytics_people where hour >= ${fromHour}`.execute(trx);
  await sql`
    insert into analytics_people (hour, user_id, jobs, exceptions, handle_buckets, handle_jobs)
    select hour, user_id, sum(jobs)::int, sum(exceptions)::int,
      coalesce(array_agg(bucket order by bucket) filter (where bucket is not null), '{}'),
      coalesce(array_agg(jobs order by bucket) filter (where bucket is not null), '{}')
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
  await sql`delete from analytics_people_daily where day >= ${fromDay}`.execute(trx);
  await sql`
    insert into analytics_people_daily (day, user_id, jobs, hours, exceptions, handle_buckets,
      handle_jobs)
    select d.day, d.user_id, d.jobs, d.hours, d.exceptions, coalesce(h.buckets, '{}'),
      coalesce(h.jobs, '{}')
    from (
      select date_bin('1 day', hour, ${ORIGIN}) as day, user_id, sum(jobs)::int as jobs,
        count(*)::int as hours, sum(exceptions)::int as exceptions
      from analytics_people where hour >= ${fromDay} group by 1, 2
    ) d
    left join (
      select day, user_id, array_agg(bucket order by bucket) as buckets,
        array_agg(jobs order by bucket) as jobs
      from (
        select date_bin('1 day', p.hour, ${ORIGIN}) as day, p.user_id, u.bucket,
          sum(u.jobs)::int as jobs
        from analytics_people p
        cross join lateral unnest(p.handle_buckets, p.handle_jobs) as u (bucket, jobs)
        where p.hour >= ${fromDay}
        group by 1, 2, 3
      ) x
      group by day, user_id
    ) h on h.day = d.day and h.user_id = d.user_id`.execute(trx);
}
