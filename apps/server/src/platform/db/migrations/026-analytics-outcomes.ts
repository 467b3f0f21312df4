import { sql, type Kysely } from 'kysely';

/**
 * Analytics, third pass (issue 16): the outcomes per arrival day, job type, queue and tenant, so
 * the dashboard's outcomes no longer read every job of the range (the jobs of the partial days at
 * the range's edges only); and the filtered exact paths (a tenant filter) read the tenant's jobs
 * by index instead of every job of the range. Backfilled from analytics_jobs: no refresh needed.
 *
 * The 2% histograms of migration 025 become one row per day and group, the buckets and their jobs
 * as two arrays: a month's view reads 30 rows per job type and metric (or technician) instead of
 * one per bucket, and merges them in Node (modules/analytics/durations.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_outcomes (
      day timestamptz not null,
      type text not null,
      queue text not null,
      tenant text not null,
      jobs integer not null,
      completed integer not null,
      exceptions integer not null,
      cancelled integer not null,
      -- Jobs dead-lettered at least once.
      dead integer not null,
      requeues integer not null,
      primary key (day, type, queue, tenant)
    );
    insert into analytics_outcomes (day, type, queue, tenant, jobs, completed, exceptions,
      cancelled, dead, requeues)
    select date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00'), type, queue, tenant,
      count(*)::int, count(*) filter (where outcome = 'completed')::int,
      count(*) filter (where exception)::int, count(*) filter (where outcome = 'cancelled')::int,
      count(*) filter (where dead > 0)::int, coalesce(sum(requeues), 0)::int
    from analytics_jobs group by 1, 2, 3, 4;

    -- Arrivals and ends per hour and queue alone: the queue charts of a view without a job-type
    -- or tenant filter read this (a row per queue and hour) instead of analytics_hourly.
    create table analytics_queue_hourly (
      hour timestamptz not null,
      queue text not null,
      arrivals integer not null,
      completions integer not null,
      ended integer not null,
      primary key (hour, queue)
    );
    insert into analytics_queue_hourly (hour, queue, arrivals, completions, ended)
    select hour, queue, sum(arrivals)::int, sum(completions)::int, sum(ended)::int
    from analytics_hourly group by hour, queue;

    create index analytics_jobs_tenant_created_idx on analytics_jobs (tenant, created_at);
    create index analytics_jobs_tenant_answered_idx on analytics_jobs (tenant, answered_at);

    create table analytics_durations_026 (
      day timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      -- Ascending buckets, and the jobs of each.
      buckets integer[] not null,
      jobs integer[] not null,
      primary key (day, type, metric)
    );
    insert into analytics_durations_026
    select day, type, metric, array_agg(bucket order by bucket), array_agg(jobs order by bucket)
    from analytics_durations group by day, type, metric;
    drop table analytics_durations;
    alter table analytics_durations_026 rename to analytics_durations;
    alter index analytics_durations_026_pkey rename to analytics_durations_pkey;

    create table analytics_people_handle_026 (
      day timestamptz not null,
      user_id uuid not null,
      buckets integer[] not null,
      jobs integer[] not null,
      primary key (day, user_id)
    );
    insert into analytics_people_handle_026
    select day, user_id, array_agg(bucket order by bucket), array_agg(jobs order by bucket)
    from analytics_people_handle group by day, user_id;
    drop table analytics_people_handle;
    alter table analytics_people_handle_026 rename to analytics_people_handle;
    alter index analytics_people_handle_026_pkey rename to analytics_people_handle_pkey;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table analytics_outcomes, analytics_queue_hourly;
    drop index analytics_jobs_tenant_created_idx;
    drop index analytics_jobs_tenant_answered_idx;

    create table analytics_durations_025 (
      day timestamptz not null,
      type text not null,
      metric text not null check (metric in ('wait', 'handle', 'total')),
      bucket integer not null,
      jobs integer not null,
      primary key (day, type, metric, bucket)
    );
    insert into analytics_durations_025
    select d.day, d.type, d.metric, u.bucket, u.jobs
    from analytics_durations d cross join lateral unnest(d.buckets, d.jobs) as u (bucket, jobs);
    drop table analytics_durations;
    alter table analytics_durations_025 rename to analytics_durations;
    alter index analytics_durations_025_pkey rename to analytics_durations_pkey;

    create table analytics_people_handle_025 (
      day timestamptz not null,
      user_id uuid not null,
      bucket integer not null,
      jobs integer not null,
      primary key (day, user_id, bucket)
    );
    insert into analytics_people_handle_025
    select h.day, h.user_id, u.bucket, u.jobs
    from analytics_people_handle h cross join lateral unnest(h.buckets, h.jobs) as u (bucket, jobs);
    drop table analytics_people_handle;
    alter table analytics_people_handle_025 rename to analytics_people_handle;
    alter index analytics_people_handle_025_pkey rename to analytics_people_handle_pkey;
  `.execute(db);
}
