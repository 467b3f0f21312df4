import { sql, type Kysely } from 'kysely';

/**
 * Analytics, fourth pass (issue 16): a month's view reads whole days from day rollups, the whole
 * hours of its partial edge days from hour rollups, and only the jobs of its partial edge hours.
 *
 * - `analytics_durations_hourly`: wait, handle and end-to-end 2% histograms per arrival hour and
 *   job type (the day histograms of `analytics_durations` are now summed from these).
 * - `analytics_people` (hour × technician) also keeps the hour's handle histogram.
 * - `analytics_people_daily` (day × technician): answers, active hours (hours with at least one
 *   answer), exceptions and the day's handle histogram; it replaces `analytics_people_handle`.
 *
 * Backfilled from analytics_jobs: no refresh needed. Every bucket is ⌊ln(1 + v) ÷ ln(1.02)⌋ as in
 * modules/analytics/rollups.ts.
 */
const ORIGIN = sql`timestamptz '2000-01-01 00:00:00+00'`;
const BUCKET = (value: string) =>
  sql`floor(ln(1 + greatest(${sql.raw(value)}, 0)) / ln(1.02))::int`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_durations_hourly (
      hour timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      buckets integer[] not null,
      jobs integer[] not null,
      primary key (hour, type, metric)
    );
    insert into analytics_durations_hourly (hour, type, metric, buckets, jobs)
    select hour, type, metric, array_agg(bucket order by bucket), array_agg(jobs order by bucket)
    from (
      select date_bin('1 hour', j.created_at, ${ORIGIN}) as hour, j.type, m.metric,
        ${BUCKET('m.value')} as bucket, count(*)::int as jobs
      from analytics_jobs j
      cross join lateral (values ('wait', j.wait_s), ('handle', j.handle_s), ('total', j.total_s))
        as m (metric, value)
      where m.value is not null
      group by 1, 2, 3, 4
    ) x
    group by hour, type, metric;

    create table analytics_people_027 (
      hour timestamptz not null,
      user_id uuid not null,
      jobs integer not null,
      exceptions integer not null,
      -- The hour's handle times: ascending buckets and the answers in each.
      handle_buckets integer[] not null,
      handle_jobs integer[] not null,
      primary key (hour, user_id)
    );
    insert into analytics_people_027 (hour, user_id, jobs, exceptions, handle_buckets, handle_jobs)
    select hour, user_id, sum(jobs)::int, sum(exceptions)::int,
      coalesce(array_agg(bucket order by bucket) filter (where bucket is not null), '{}'),
      coalesce(array_agg(jobs order by bucket) filter (where bucket is not null), '{}')
    from (
      -- Answers without a handle time (no delivery seen) count, in no bucket.
      select date_bin('1 hour', answered_at, ${ORIGIN}) as hour, answered_by as user_id,
        case when handle_s is not null then ${BUCKET('handle_s')} end as bucket,
        count(*)::int as jobs, count(*) filter (where exception)::int as exceptions
      from analytics_jobs where answered_at is not null and answered_by is not null
      group by 1, 2, 3
    ) x
    group by hour, user_id;
    drop table analytics_people;
    alter table analytics_people_027 rename to analytics_people;
    alter index analytics_people_027_pkey rename to analytics_people_pkey;

    create table analytics_people_daily (
      day timestamptz not null,
      user_id uuid not null,
      jobs integer not null,
      -- Hours of the day with at least one answer.
      hours integer not null,
      exceptions integer not null,
      handle_buckets integer[] not null,
      handle_jobs integer[] not null,
      primary key (day, user_id)
    );
    insert into analytics_people_daily
    select d.day, d.user_id, d.jobs, d.hours, d.exceptions,
      coalesce(h.buckets, '{}'), coalesce(h.jobs, '{}')
    from (
      select date_bin('1 day', hour, ${ORIGIN}) as day, user_id, sum(jobs)::int as jobs,
        count(*)::int as hours, sum(exceptions)::int as exceptions
      from analytics_people group by 1, 2
    ) d
    left join (
      select day, user_id, array_agg(bucket order by bucket) as buckets,
        array_agg(jobs order by bucket) as jobs
      from (
        select date_bin('1 day', p.hour, ${ORIGIN}) as day, p.user_id, u.bucket,
          sum(u.jobs)::int as jobs
        from analytics_people p cross join lateral unnest(p.handle_buckets, p.handle_jobs)
          as u (bucket, jobs)
        group by 1, 2, 3
      ) x group by day, user_id
    ) h on h.day = d.day and h.user_id = d.user_id;
    drop table analytics_people_handle;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_people_handle (
      day timestamptz not null,
      user_id uuid not null,
      buckets integer[] not null,
      jobs integer[] not null,
      primary key (day, user_id)
    );
    insert into analytics_people_handle
    select day, user_id, handle_buckets, handle_jobs from analytics_people_daily
    where cardinality(handle_buckets) > 0;
    drop table analytics_people_daily, analytics_durations_hourly;
    alter table analytics_people drop column handle_buckets, drop column handle_jobs;
  `.execute(db);
}
