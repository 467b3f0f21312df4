import { sql } from 'kysely';
import type { AnalyticsFilters } from '@loopdesk/contracts/analytics.ts';
import type { Database } from '../../platform/db/database.ts';
import { DAY_MS, edgeJobs, num, pct, where, wholeUnits, type Row } from './query.ts';

/**
 * The queue, desk and outcome figures of the dashboard: each reads a rollup (migrations 022, 026)
 * and, where a range ends inside a day, the jobs of those partial days only.
 */

/**
 * Open jobs per queue at the end of each hour, and arrivals and completions per hour: one read of
 * the hourly rollup for both (the hours the range touches), and one sum for the jobs open at its
 * start; per queue alone (analytics_queue_hourly) when no job type or tenant is filtered.
 */
export async function queueFigures(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  // Without a job-type or tenant filter, the per-queue hours (026): a row per queue and hour.
  const perQueue = filters.type === undefined && filters.tenant === undefined;
  const table = sql.table(perQueue ? 'analytics_queue_hourly' : 'analytics_hourly');
  const all = where(filters, ['type', 'queue', 'tenant']);
  const firstHour = sql`date_bin('1 hour', ${from}::timestamptz, timestamptz '2000-01-01 00:00:00+00')`;
  const result = await sql<Row>`
    with base as (
      -- Open at the range's start: one sum over the hours before it, no window over them.
      select queue, sum(arrivals - ended) as open from ${table}
      where hour < ${firstHour} ${all} group by queue
    ),
    per as (
      select hour, queue, sum(arrivals - ended) as delta, sum(arrivals) as arrivals,
        sum(completions) as completions
      from ${table}
      where hour >= ${firstHour} and hour < ${to} ${all} group by hour, queue
    )
    select p.hour, p.queue, p.arrivals::int as arrivals, p.completions::int as completions,
      (coalesce(b.open, 0) + sum(p.delta) over (partition by p.queue order by p.hour))::int as open
    from per p left join base b on b.queue = p.queue
    order by p.hour, p.queue`.execute(db);
  const hourly = new Map<string, { hour: string; arrivals: number; completions: number }>();
  const depth = result.rows.map((r) => {
    const hour = new Date(r.hour as string).toISOString();
    const sums = hourly.get(hour) ?? { hour, arrivals: 0, completions: 0 };
    sums.arrivals += num(r.arrivals);
    sums.completions += num(r.completions);
    hourly.set(hour, sums);
    return { hour, queue: String(r.queue), open: num(r.open) };
  });
  return { depth, hourly: [...hourly.values()] };
}

/** Now, whatever the range: the jobs waiting per queue and since when the oldest waits. */
export function oldest(db: Database, filters: AnalyticsFilters) {
  return sql<Row>`
    select queue, count(*)::int as waiting, min(queued_at) as oldest,
      extract(epoch from now() - min(queued_at))::float8 as age
    from jobs where state = 'queued'
      ${where(filters, ['type', 'queue', 'tenant'])}
    group by queue order by queue`.execute(db);
}

/** The exception desk's handovers of the range (the job-type filter does not apply). */
export function desk(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  return sql<Row>`
    select count(*)::int as handovers,
      count(first_reply_at) as reply_n,
      ${pct(sql`extract(epoch from first_reply_at - handed_at)`)} as reply,
      count(closed_at - allocated_at) as human_n,
      ${pct(sql`extract(epoch from closed_at - allocated_at)`)} as human,
      count(*) filter (where closed_how = 'handback')::int as handbacks,
      count(*) filter (where closed_how = 'end')::int as ends,
      count(*) filter (where closed_at is null)::int as open
    from analytics_handovers
    where handed_at >= ${from} and handed_at < ${to} ${where(filters, ['queue', 'tenant'])}`.execute(
    db,
  );
}

/**
 * Outcomes per job type of the jobs that arrived in the range: the whole days from
 * analytics_outcomes (026), the partial days at the edges from the jobs.
 */
export function outcomes(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  const all = where(filters, ['type', 'queue', 'tenant']);
  const days = wholeUnits(from, to, DAY_MS);
  const rollup = days.whole
    ? sql`select type, completed, exceptions, cancelled, dead, requeues from analytics_outcomes
        where day >= ${days.first} and day < ${days.last} ${all}
        union all`
    : sql``;
  return sql<Row>`
    select type, sum(completed)::int as completed, sum(exceptions)::int as exceptions,
      sum(cancelled)::int as cancelled, sum(dead)::int as dead, sum(requeues)::int as requeues
    from (
      ${rollup}
      select type, (outcome = 'completed')::int as completed, exception::int as exceptions,
        (outcome = 'cancelled')::int as cancelled, (dead > 0)::int as dead, requeues
      from (${edgeJobs('created_at', from, to, days, all)}) j
    ) x
    group by type order by type`.execute(db);
}

/** Discarded async tasks per pipeline/step (only the job-type filter applies). */
export function discards(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  return sql<Row>`
    select type, count(*)::int as discards, count(*) filter (where with_note)::int as notes
    from analytics_discards where occurred_at >= ${from} and occurred_at < ${to}
      ${where(filters, ['type'])}
    group by type order by type`.execute(db);
}
