import { sql, type RawBuilder } from 'kysely';
import type {
  AnalyticsFigures,
  AnalyticsFilters,
  Percentiles,
} from '@loopdesk/contracts/analytics.ts';
import { QUEUES } from '@loopdesk/contracts/jobs.ts';
import type { Database } from '../../platform/db/database.ts';
import { badRequest } from '../../platform/errors.ts';
import { disagrees, scores } from './agreement.ts';
import { BUCKET_BASE, bucketOf } from './rollups.ts';

/**
 * The dashboard's queries (issue 16), over the rollups of migration 022 only (and the live queue
 * for the oldest waiting job). Every duration is in seconds; percentiles are PostgreSQL's
 * percentile_cont (linear interpolation between the two nearest samples).
 */

type Row = Record<string, unknown>;

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/** `[p50, p90, p99]` of percentile_cont as a number array (pg gives numbers, maybe strings). */
function percentiles(count: unknown, values: unknown): Percentiles {
  const list = Array.isArray(values) ? values.map((v) => (v === null ? null : Number(v))) : [];
  const round = (v: number | null | undefined) =>
    v === null || v === undefined ? null : Math.round(v * 1000) / 1000;
  return {
    count: num(count),
    p50: round(list[0]),
    p90: round(list[1]),
    p99: round(list[2]),
  };
}

const P = sql.raw('array[0.5, 0.9, 0.99]');
const pct = (expression: RawBuilder<unknown>) =>
  sql`percentile_cont(${P}) within group (order by (${expression})::float8)`;

const iso = (value: unknown) => new Date(value as string).toISOString();

/** The filter options: every job type, queue and tenant the rollups have seen. */
async function options(db: Database) {
  const result = await sql<{ kind: string; value: string }>`
    select distinct 'type' as kind, type as value from analytics_hourly
    union select distinct 'queue', queue from analytics_hourly
    union select distinct 'tenant', tenant from analytics_hourly
    union select distinct 'tenant', tenant from analytics_handovers
    order by kind, value`.execute(db);
  const of = (kind: string) => result.rows.filter((r) => r.kind === kind).map((r) => r.value);
  return {
    types: of('type'),
    queues: [...new Set([...QUEUES, ...of('queue')])].sort(),
    tenants: of('tenant'),
  };
}

/** Refuses a job type, queue or tenant nobody has seen: a clear 400 that lists what exists. */
function checkKnown(filters: AnalyticsFilters, known: Awaited<ReturnType<typeof options>>) {
  const checks = [
    ['type', 'job type', known.types],
    ['queue', 'queue', known.queues],
    ['tenant', 'tenant', known.tenants],
  ] as const;
  for (const [field, label, values] of checks) {
    const value = filters[field];
    if (value !== undefined && !values.includes(value)) {
      const shown = values.slice(0, 20).join(', ') || 'none yet';
      throw badRequest(`Unknown ${label} '${value}': choose one of ${shown}.`, [
        { path: field, message: `unknown ${label}; known: ${shown}` },
      ]);
    }
  }
}

/** The `and …` of the filters that apply to a table with these columns. */
function where(filters: AnalyticsFilters, columns: readonly ('type' | 'queue' | 'tenant')[]) {
  const parts = columns
    .filter((column) => filters[column] !== undefined)
    .map((column) => sql`and ${sql.ref(column)} = ${filters[column]}`);
  return parts.length ? sql.join(parts, sql` `) : sql``;
}

const DAY_MS = 86_400_000;

/**
 * Wait, handle and end-to-end p50/p90/p99 per job type. Exact (percentile_cont over the jobs)
 * for ranges of less than two whole UTC days or with a queue or tenant filter; otherwise from the
 * day histograms of the whole days in the range (analytics_durations) and the jobs of the partial
 * days at its edges, put in the same 2% buckets: each percentile within about 1% of the exact one
 * (docs/analytics.md), and the cost no longer grows with the jobs of the range.
 */
async function durations(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  const firstDay = new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS);
  const lastDay = new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS);
  const all = where(filters, ['type', 'queue', 'tenant']);
  if (
    filters.queue !== undefined ||
    filters.tenant !== undefined ||
    lastDay.getTime() - firstDay.getTime() < 2 * DAY_MS
  ) {
    return sorting(
      db,
      sql<Row>`
      select type,
        count(wait_s) as wait_n, ${pct(sql`wait_s`)} as wait,
        count(handle_s) as handle_n, ${pct(sql`handle_s`)} as handle,
        count(total_s) as total_n, ${pct(sql`total_s`)} as total
      from analytics_jobs where created_at >= ${from} and created_at < ${to} ${all}
      group by type order by type`,
    );
  }
  const type = where(filters, ['type']);
  const result = await sql<{ type: string; metric: string; bucket: number; jobs: number }>`
    select type, metric, bucket, sum(jobs)::int as jobs from (
      select type, metric, bucket, jobs from analytics_durations
      where day >= ${firstDay} and day < ${lastDay} ${type}
      union all
      select j.type, m.metric, ${bucketOf(sql`m.value`)}, 1 from (
        -- Two range scans of the arrival index (an "or" of the two would read every job).
        select * from analytics_jobs where created_at >= ${from} and created_at < ${firstDay}
        union all
        select * from analytics_jobs where created_at >= ${lastDay} and created_at < ${to}
      ) j
      cross join lateral (values ('wait', j.wait_s), ('handle', j.handle_s), ('total', j.total_s))
        as m (metric, value)
      where m.value is not null ${type}
    ) x
    group by type, metric, bucket order by type, metric, bucket`.execute(db);
  const types = new Map<string, Map<string, [number, number][]>>();
  for (const row of result.rows) {
    const metrics = types.get(row.type) ?? new Map<string, [number, number][]>();
    types.set(row.type, metrics);
    const histogram = metrics.get(row.metric) ?? [];
    histogram.push([row.bucket, row.jobs]);
    metrics.set(row.metric, histogram);
  }
  const of = (histogram: [number, number][] | undefined) => {
    const n = (histogram ?? []).reduce((sum, [, jobs]) => sum + jobs, 0);
    return { n, values: [0.5, 0.9, 0.99].map((p) => fromHistogram(histogram ?? [], n, p)) };
  };
  return {
    rows: [...types].map(([t, metrics]): Row => {
      const [wait, handle, total] = ['wait', 'handle', 'total'].map((m) => of(metrics.get(m)));
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
 * ranges or with a type, queue or tenant filter; otherwise from the per-hour and per-day people
 * rollups for the whole hours and days of the range, and the jobs of its partial edges (the handle
 * percentiles within about 1%, as the durations'; the counts exact).
 */
async function peopleFigures(db: Database, filters: AnalyticsFilters, from: Date, to: Date) {
  const firstDay = new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS);
  const lastDay = new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS);
  if (
    filters.type !== undefined ||
    filters.queue !== undefined ||
    filters.tenant !== undefined ||
    lastDay.getTime() - firstDay.getTime() < 2 * DAY_MS
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
        ${where(filters, ['type', 'queue', 'tenant'])}
      group by j.answered_by, u.display_name, u.email order by name`,
    );
  }
  const HOUR_MS = 3_600_000;
  const firstHour = new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS);
  const lastHour = new Date(Math.floor(to.getTime() / HOUR_MS) * HOUR_MS);
  const hourOf = sql`date_bin('1 hour', answered_at, timestamptz '2000-01-01 00:00:00+00')`;
  const edge = (a: Date, b: Date) =>
    sql`select * from analytics_jobs where answered_at >= ${a} and answered_at < ${b}
      and answered_by is not null`;
  const [counts, handles] = await Promise.all([
    sql<Row>`
      select x.user_id, coalesce(u.display_name, u.email, x.user_id::text) as name,
        sum(x.jobs)::int as jobs, count(distinct x.hour)::int as hours,
        sum(x.exceptions)::int as exceptions
      from (
        select hour, user_id, jobs, exceptions from analytics_people
        where hour >= ${firstHour} and hour < ${lastHour}
        union all
        select ${hourOf}, answered_by, 1, case when exception then 1 else 0 end
        from (${edge(from, firstHour)} union all ${edge(lastHour, to)}) e
      ) x left join users u on u.id = x.user_id
      group by x.user_id, u.display_name, u.email order by name`.execute(db),
    sql<{ user_id: string; bucket: number; jobs: number }>`
      select user_id, bucket, sum(jobs)::int as jobs from (
        select user_id, bucket, jobs from analytics_people_handle
        where day >= ${firstDay} and day < ${lastDay}
        union all
        select answered_by, ${bucketOf(sql`handle_s`)}, 1
        from (${edge(from, firstDay)} union all ${edge(lastDay, to)}) e where handle_s is not null
      ) x group by user_id, bucket order by user_id, bucket`.execute(db),
  ]);
  const histograms = new Map<string, [number, number][]>();
  for (const row of handles.rows) {
    const histogram = histograms.get(row.user_id) ?? [];
    histogram.push([row.bucket, row.jobs]);
    histograms.set(row.user_id, histogram);
  }
  return {
    rows: counts.rows.map((row): Row => {
      const histogram = histograms.get(String(row.user_id)) ?? [];
      const n = histogram.reduce((sum, [, jobs]) => sum + jobs, 0);
      return {
        ...row,
        handle_n: n,
        handle: [0.5, 0.9, 0.99].map((p) => fromHistogram(histogram, n, p)),
      };
    }),
  };
}

/** percentile_cont's interpolation over a histogram's buckets (each value its bucket's middle). */
function fromHistogram(histogram: [number, number][], n: number, p: number): number | null {
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

/**
 * The filter options change only when the rollups are refreshed: kept per database and refresh
 * (every node reads the same `refreshed_at`), so a view does not scan the hourly rollup for them.
 */
const optionsCache = new WeakMap<Database, { at: number; known: Promise<Options> }>();
type Options = Awaited<ReturnType<typeof options>>;

function cachedOptions(db: Database, refreshedAt: Date | null): Promise<Options> {
  if (!refreshedAt) {
    return options(db);
  }
  const cached = optionsCache.get(db);
  if (cached && cached.at === refreshedAt.getTime()) {
    return cached.known;
  }
  const known = options(db);
  optionsCache.set(db, { at: refreshedAt.getTime(), known });
  known.catch(() => optionsCache.delete(db));
  return known;
}

/**
 * Runs a query that sorts many rows (percentiles) with room to sort in memory: PostgreSQL's
 * default work_mem (4 MB) sends a month of per-job durations to disk (bench/README.md).
 */
function sorting<T>(db: Database, query: RawBuilder<T>) {
  return db.transaction().execute(async (trx) => {
    await sql`set local work_mem = '64MB'`.execute(trx);
    return query.execute(trx);
  });
}

export async function readFigures(
  db: Database,
  filters: AnalyticsFilters,
  context: { people: boolean; refreshedAt: Date | null },
): Promise<AnalyticsFigures> {
  const known = await cachedOptions(db, context.refreshedAt);
  checkKnown(filters, known);
  const from = new Date(filters.from);
  const to = new Date(filters.to);
  const all = where(filters, ['type', 'queue', 'tenant']);
  const inRange = sql`created_at >= ${from} and created_at < ${to}`;
  const firstHour = sql`date_bin('1 hour', ${from}::timestamptz, timestamptz '2000-01-01 00:00:00+00')`;

  const [depth, hourly, oldest, times, desk, outcomes, discards, people, agreement] =
    await Promise.all([
      sql<Row>`
      with base as (
        -- Open at the range's start: one sum over the hours before it, no window over them.
        select queue, sum(arrivals - ended) as open from analytics_hourly
        where hour < ${firstHour} ${all} group by queue
      ),
      per as (
        select hour, queue, sum(arrivals - ended) as delta from analytics_hourly
        where hour >= ${firstHour} and hour < ${to} ${all} group by hour, queue
      ),
      cum as (
        select p.hour, p.queue,
          coalesce(b.open, 0) + sum(p.delta) over (partition by p.queue order by p.hour) as open
        from per p left join base b on b.queue = p.queue
      )
      select hour, queue, open::int as open from cum order by hour, queue`.execute(db),
      sql<Row>`
      select hour, sum(arrivals)::int as arrivals, sum(completions)::int as completions
      from analytics_hourly where hour >= ${firstHour} and hour < ${to} ${all}
      group by hour order by hour`.execute(db),
      sql<Row>`
      select queue, count(*)::int as waiting, min(queued_at) as oldest,
        extract(epoch from now() - min(queued_at))::float8 as age
      from jobs where state = 'queued' ${all} group by queue order by queue`.execute(db),
      durations(db, filters, from, to),
      sql<Row>`
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
      ),
      sql<Row>`
      select type,
        count(*) filter (where outcome = 'completed')::int as completed,
        count(*) filter (where exception)::int as exceptions,
        count(*) filter (where outcome = 'cancelled')::int as cancelled,
        count(*) filter (where dead > 0)::int as dead,
        sum(requeues)::int as requeues
      from analytics_jobs where ${inRange} ${all} group by type order by type`.execute(db),
      sql<Row>`
      select type, count(*)::int as discards, count(*) filter (where with_note)::int as notes
      from analytics_discards where occurred_at >= ${from} and occurred_at < ${to}
        ${where(filters, ['type'])}
      group by type order by type`.execute(db),
      context.people ? peopleFigures(db, filters, from, to) : Promise.resolve(null),
      sql<Row>`
      select g.sample_job_id, g.job_id, g.type, g.tenant, g.answered_at, g.first_user,
        g.second_user, g.first_spans, g.second_spans, g.matched_spans, g.category_pairs,
        g.outcome_differs,
        coalesce(f.display_name, f.email, g.first_user::text, '') as first_name,
        coalesce(s.display_name, s.email, g.second_user::text, '') as second_name
      from analytics_agreement g
      left join users f on f.id = g.first_user
      left join users s on s.id = g.second_user
      where g.answered_at >= ${from} and g.answered_at < ${to}
        ${where(filters, ['type', 'queue', 'tenant'])}
      order by g.answered_at desc, g.sample_job_id`.execute(db),
    ]);

  const deskRow = desk.rows[0] ?? {};
  return {
    filters: {
      from: from.toISOString(),
      to: to.toISOString(),
      type: filters.type ?? null,
      queue: filters.queue ?? null,
      tenant: filters.tenant ?? null,
    },
    options: known,
    refreshedAt: context.refreshedAt ? context.refreshedAt.toISOString() : null,
    queues: {
      depth: depth.rows.map((r) => ({
        hour: iso(r.hour),
        queue: String(r.queue),
        open: num(r.open),
      })),
      hourly: hourly.rows.map((r) => ({
        hour: iso(r.hour),
        arrivals: num(r.arrivals),
        completions: num(r.completions),
      })),
      oldest: oldest.rows.map((r) => ({
        queue: String(r.queue),
        waiting: num(r.waiting),
        oldestQueuedAt: iso(r.oldest),
        ageSeconds: Math.round(num(r.age)),
      })),
    },
    times: times.rows.map((r) => ({
      type: String(r.type),
      wait: percentiles(r.wait_n, r.wait),
      handle: percentiles(r.handle_n, r.handle),
      total: percentiles(r.total_n, r.total),
    })),
    desk: {
      handovers: num(deskRow.handovers),
      firstReply: percentiles(deskRow.reply_n, deskRow.reply),
      withHuman: percentiles(deskRow.human_n, deskRow.human),
      handbacks: num(deskRow.handbacks),
      ends: num(deskRow.ends),
      open: num(deskRow.open),
    },
    outcomes: outcomes.rows.map((r) => ({
      type: String(r.type),
      completed: num(r.completed),
      exceptions: num(r.exceptions),
      cancelled: num(r.cancelled),
      dead: num(r.dead),
      requeues: num(r.requeues),
    })),
    discards: discards.rows.map((r) => ({
      type: String(r.type),
      discards: num(r.discards),
      withNotes: num(r.notes),
    })),
    people: people
      ? people.rows.map((r) => {
          const jobs = num(r.jobs);
          const hours = num(r.hours);
          const exceptions = num(r.exceptions);
          return {
            userId: String(r.user_id),
            name: String(r.name),
            jobs,
            activeHours: hours,
            jobsPerHour: hours ? Math.round((jobs / hours) * 100) / 100 : 0,
            handle: percentiles(r.handle_n, r.handle),
            exceptions,
            exceptionRate: jobs ? Math.round((exceptions / jobs) * 10000) / 10000 : 0,
          };
        })
      : null,
    agreement: agreementFigures(agreement.rows, context.people),
  };
}

/** Agreement per job type, per technician pair (with the people privilege) and disagreements. */
function agreementFigures(
  rows: readonly Row[],
  withPeople: boolean,
): AnalyticsFigures['agreement'] {
  const compared = rows.map((r) => ({
    row: r,
    comparison: {
      firstSpans: num(r.first_spans),
      secondSpans: num(r.second_spans),
      matchedSpans: num(r.matched_spans),
      categoryPairs: (Array.isArray(r.category_pairs) ? r.category_pairs : []) as [
        string,
        string,
      ][],
      outcomeDiffers: Boolean(r.outcome_differs),
    },
  }));
  const group = <K extends string>(key: (r: Row) => K) => {
    const groups = new Map<K, typeof compared>();
    for (const item of compared) {
      const k = key(item.row);
      // Pushed, not copied: a month holds thousands of samples.
      const list = groups.get(k) ?? [];
      list.push(item);
      groups.set(k, list);
    }
    return [...groups].sort(([a], [b]) => a.localeCompare(b));
  };
  const byType = group((r) => String(r.type)).map(([type, items]) => ({
    type,
    ...scores(items.map((i) => i.comparison)),
  }));
  // A pair is the two technicians whatever their order.
  const person = (r: Row, side: 'first' | 'second') => ({
    userId: typeof r[`${side}_user`] === 'string' ? (r[`${side}_user`] as string) : '',
    name: typeof r[`${side}_name`] === 'string' ? (r[`${side}_name`] as string) : '',
  });
  const byPair = withPeople
    ? group((r) => {
        const [a, b] = [person(r, 'first'), person(r, 'second')].sort((x, y) =>
          x.userId.localeCompare(y.userId),
        );
        return `${a?.userId ?? ''}/${b?.userId ?? ''}`;
      }).map(([, items]) => {
        const row = items[0]?.row ?? {};
        const [first, second] = [person(row, 'first'), person(row, 'second')].sort((x, y) =>
          x.userId.localeCompare(y.userId),
        );
        return {
          first: first ?? { userId: '', name: '' },
          second: second ?? { userId: '', name: '' },
          ...scores(items.map((i) => i.comparison)),
        };
      })
    : null;
  const disagreements = compared
    .filter((item) => disagrees(item.comparison))
    .slice(0, 100)
    .map(({ row, comparison }) => ({
      jobId: String(row.job_id),
      sampleJobId: String(row.sample_job_id),
      type: String(row.type),
      tenant: String(row.tenant),
      answeredAt: iso(row.answered_at),
      firstSpans: comparison.firstSpans,
      secondSpans: comparison.secondSpans,
      matchedSpans: comparison.matchedSpans,
      categoryDisagreements: comparison.categoryPairs.filter(([a, b]) => a !== b).length,
      outcomeDiffers: comparison.outcomeDiffers,
    }));
  return { byType, byPair, disagreements };
}
