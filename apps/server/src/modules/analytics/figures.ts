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

export async function readFigures(
  db: Database,
  filters: AnalyticsFilters,
  context: { people: boolean; refreshedAt: Date | null },
): Promise<AnalyticsFigures> {
  const known = await options(db);
  checkKnown(filters, known);
  const from = new Date(filters.from);
  const to = new Date(filters.to);
  const all = where(filters, ['type', 'queue', 'tenant']);
  const inRange = sql`created_at >= ${from} and created_at < ${to}`;
  const firstHour = sql`date_bin('1 hour', ${from}::timestamptz, timestamptz '2000-01-01 00:00:00+00')`;

  const [depth, hourly, oldest, times, desk, outcomes, discards, people, agreement] =
    await Promise.all([
      sql<Row>`
      with per as (
        select hour, queue, sum(arrivals - ended) as delta from analytics_hourly
        where hour < ${to} ${all} group by hour, queue
      ),
      cum as (select hour, queue, sum(delta) over (partition by queue order by hour) as open from per)
      select hour, queue, open::int as open from cum where hour >= ${firstHour} order by hour, queue`.execute(
        db,
      ),
      sql<Row>`
      select hour, sum(arrivals)::int as arrivals, sum(completions)::int as completions
      from analytics_hourly where hour >= ${firstHour} and hour < ${to} ${all}
      group by hour order by hour`.execute(db),
      sql<Row>`
      select queue, count(*)::int as waiting, min(queued_at) as oldest,
        extract(epoch from now() - min(queued_at))::float8 as age
      from jobs where state = 'queued' ${all} group by queue order by queue`.execute(db),
      sql<Row>`
      select type,
        count(wait_s) as wait_n, ${pct(sql`wait_s`)} as wait,
        count(handle_s) as handle_n, ${pct(sql`handle_s`)} as handle,
        count(total_s) as total_n, ${pct(sql`total_s`)} as total
      from analytics_jobs where ${inRange} ${all} group by type order by type`.execute(db),
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
      context.people
        ? sql<Row>`
      select j.answered_by as user_id, coalesce(u.display_name, u.email, j.answered_by::text) as name,
        count(*)::int as jobs,
        count(distinct date_bin('1 hour', j.answered_at, timestamptz '2000-01-01 00:00:00+00'))::int as hours,
        count(j.handle_s) as handle_n, ${pct(sql`j.handle_s`)} as handle,
        count(*) filter (where j.exception)::int as exceptions
      from analytics_jobs j left join users u on u.id = j.answered_by
      where j.answered_at >= ${from} and j.answered_at < ${to} and j.answered_by is not null
        ${where(filters, ['type', 'queue', 'tenant'])}
      group by j.answered_by, u.display_name, u.email order by name`.execute(db)
        : Promise.resolve(null),
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
      groups.set(k, [...(groups.get(k) ?? []), item]);
    }
    return [...groups].sort(([a], [b]) => a.localeCompare(b));
  };
  const byType = group((r) => String(r.type)).map(([type, items]) => ({
    type,
    ...scores(items.map((i) => i.comparison)),
  }));
  // A pair is the two technicians whatever their order.
  const person = (r: Row, side: 'first' | 'second') => ({
    userId: String(r[`${side}_user`] ?? ''),
    name: String(r[`${side}_name`] ?? ''),
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
