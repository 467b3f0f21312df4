import { sql, type Kysely } from 'kysely';

/**
 * Analytics, fourth pass (issue 16): a month's view reads whole days from day rollups, the whole
 * hours of its partial edge days from hour rollups, and only the jobs of its partial edge hours.
 *
 * - `analytics_durations_hourly`: wait, handle and end-to-end 2% histograms per arrival hour and
 *   job type, beside the day ones of `analytics_durations`.
 * - `analytics_people` (hour × technician) also keeps the hour's handle histogram.
 * - `analytics_people_daily` (day × technician): answers, active hours (hours with at least one
 *   answer), exceptions and the day's handle histogram; it replaces `analytics_people_handle`.
 *
 * Every histogram is now one `bytea` of 6-byte pairs in ascending buckets (the bucket a big-endian
 * int16, its jobs a big-endian int32) instead of two integer arrays: the server reads the bytes
 * as they come, where an array's text form was parsed character by character. A bucket is
 * ⌊ln(1 + v) ÷ ln(1.02)⌋ as in modules/analytics/hour-rollups.ts (under 1,000 for a year).
 * Backfilled from analytics_jobs and the old tables: no refresh needed.
 */
const ORIGIN = sql`timestamptz '2000-01-01 00:00:00+00'`;
const BUCKET = (value: string) =>
  sql`floor(ln(1 + greatest(${sql.raw(value)}, 0)) / ln(1.02))::int`;
const PACKED = sql`coalesce(string_agg(int2send(bucket::int2) || int4send(jobs), ''::bytea
  order by bucket) filter (where bucket is not null), ''::bytea)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_durations_027 (
      day timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      histogram bytea not null,
      primary key (day, type, metric)
    );
    insert into analytics_durations_027 (day, type, metric, histogram)
    select d.day, d.type, d.metric, (
      select ${PACKED} from unnest(d.buckets, d.jobs) as u (bucket, jobs)
    ) from analytics_durations d;
    drop table analytics_durations;
    alter table analytics_durations_027 rename to analytics_durations;
    alter index analytics_durations_027_pkey rename to analytics_durations_pkey;

    create table analytics_durations_hourly (
      hour timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      histogram bytea not null,
      primary key (hour, type, metric)
    );
    insert into analytics_durations_hourly (hour, type, metric, histogram)
    select hour, type, metric, ${PACKED}
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
      -- The hour's handle times.
      handle bytea not null,
      primary key (hour, user_id)
    );
    insert into analytics_people_027 (hour, user_id, jobs, exceptions, handle)
    select hour, user_id, sum(jobs)::int, sum(exceptions)::int, ${PACKED}
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
      handle bytea not null,
      primary key (day, user_id)
    );
    insert into analytics_people_daily (day, user_id, jobs, hours, exceptions, handle)
    select date_bin('1 day', hour, ${ORIGIN}), user_id, sum(jobs)::int, count(*)::int,
      sum(exceptions)::int, ''::bytea
    from analytics_people group by 1, 2;
    update analytics_people_daily d set handle = (
      select ${PACKED} from unnest(h.buckets, h.jobs) as u (bucket, jobs)
    ) from analytics_people_handle h where h.day = d.day and h.user_id = d.user_id;
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
    create table analytics_durations_026 (
      day timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      buckets integer[] not null,
      jobs integer[] not null,
      primary key (day, type, metric)
    );
  `.execute(db);
  // The packed pairs back to two arrays (buckets under 32,768; jobs read as big-endian int32).
  await sql`
    insert into analytics_people_handle (day, user_id, buckets, jobs)
    select day, user_id, b, j from (
      select day, user_id,
        (select array_agg(get_byte(handle, i) * 256 + get_byte(handle, i + 1) order by i)
          from generate_series(0, length(handle) - 1, 6) i) as b,
        (select array_agg(('x' || encode(substring(handle from i + 3 for 4), 'hex'))::bit(32)::int
          order by i) from generate_series(0, length(handle) - 1, 6) i) as j
      from analytics_people_daily where length(handle) > 0
    ) x;
    insert into analytics_durations_026 (day, type, metric, buckets, jobs)
    select day, type, metric,
      (select array_agg(get_byte(histogram, i) * 256 + get_byte(histogram, i + 1) order by i)
        from generate_series(0, length(histogram) - 1, 6) i),
      (select array_agg(('x' || encode(substring(histogram from i + 3 for 4), 'hex'))::bit(32)::int
        order by i) from generate_series(0, length(histogram) - 1, 6) i)
    from analytics_durations;
    drop table analytics_durations, analytics_people_daily, analytics_durations_hourly;
    alter table analytics_durations_026 rename to analytics_durations;
    alter index analytics_durations_026_pkey rename to analytics_durations_pkey;
    alter table analytics_people drop column handle;
  `.execute(db);
}
