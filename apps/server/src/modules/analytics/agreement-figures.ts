import { sql, type RawBuilder } from 'kysely';
import type {
  AgreementScores,
  AnalyticsFigures,
  AnalyticsFilters,
} from '@loopdesk/contracts/analytics.ts';
import type { Database } from '../../platform/db/database.ts';
import { kappaOfCounts, roundScore } from './agreement.ts';
import { DAY_MS, iso, num, where, wholeUnits, type Row } from './query.ts';

/**
 * The agreement figures of a range (docs/analytics.md "Agreement"), summed by PostgreSQL: per
 * group (job type, or pair of technicians) the samples, the span counts F1 is computed from and
 * the count of each (first category, second category) label pair kappa is computed from; and the
 * newest 100 disagreements. Only sums and 100 rows reach Node: the whole days' cells from their
 * day rows (migration 028) and the partial edge days' summed from their samples.
 */

interface Group {
  readonly samples: number;
  readonly matched: number;
  readonly spans: number;
  /** [first label, second label, items]. */
  readonly labels: readonly (readonly [string, string, number])[];
}

function scoresOf(group: Group): AgreementScores {
  return {
    samples: group.samples,
    f1: group.spans > 0 ? roundScore((2 * group.matched) / group.spans) : null,
    items: group.labels.reduce((sum, [, , n]) => sum + n, 0),
    kappa: kappaOfCounts(group.labels),
  };
}

/** A technician of a pair: their id, or the nil uuid for none (shown as ''). */
const NONE = '00000000-0000-0000-0000-000000000000';

export interface Cell {
  readonly type: string;
  readonly lo: string;
  readonly hi: string;
  readonly samples: number;
  readonly matched: number;
  readonly spans: number;
  readonly labels: unknown;
}

/**
 * One pass over the range's samples, their `category_pairs` unpacked once: per (job type, pair
 * of technicians whatever their order) the samples' sums and the count of each label pair. The
 * per-type and per-pair groups are summed from these cells in Node (types × pairs rows at most).
 * JIT is off for it: the planner guesses 100 items per `category_pairs` (there are a few), which
 * puts the plan's cost over jit_above_cost, and compiling then took longer than the query. The
 * pair is grouped as uuids and the labels in the "C" collation: the sort is then byte compares.
 */
function cells(db: Database, range: RawBuilder<unknown>): Promise<readonly Cell[]> {
  const [one, two] = [sql`coalesce(g.first_user, ${NONE})`, sql`coalesce(g.second_user, ${NONE})`];
  return withoutJit(
    db,
    sql<Cell>`
      with s as materialized (
        select g.type, least(${one}, ${two}) as lo, greatest(${one}, ${two}) as hi,
          g.matched_spans, g.first_spans + g.second_spans as spans, g.category_pairs
        from analytics_agreement g where ${range}
      ),
      sums as (
        select type, lo, hi, count(*)::int as samples, sum(matched_spans)::int as matched,
          sum(spans)::int as spans
        from s group by type, lo, hi
      ),
      labels as (
        select type, lo, hi, jsonb_agg(jsonb_build_array(a, b, n)) as labels from (
          select s.type, s.lo, s.hi, (p->>0) collate "C" as a, (p->>1) collate "C" as b,
            count(*)::int as n
          from s cross join lateral jsonb_array_elements(s.category_pairs) p
          group by s.type, s.lo, s.hi, a, b
        ) x group by type, lo, hi
      )
      select sums.type, sums.lo::text as lo, sums.hi::text as hi, sums.samples, sums.matched,
        sums.spans, labels.labels
      from sums left join labels on labels.type = sums.type and labels.lo = sums.lo
        and labels.hi = sums.hi`,
  );
}

/** A query run with JIT off (see `cells`): its rows. */
function withoutJit<T>(db: Database, query: RawBuilder<T>): Promise<readonly T[]> {
  return db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return (await query.execute(trx)).rows;
  });
}

/**
 * The cells of whole days, summed by PostgreSQL from their day rows (028) per (job type, pair):
 * their label counts unpacked and added up there. Reading the day rows into Node and adding them
 * up here took about 1.5× as long (a month of the bench history: 2,300 rows, 77 cells).
 */
function dayCells(db: Database, days: RawBuilder<unknown>): Promise<readonly Cell[]> {
  return withoutJit(
    db,
    sql<Cell>`
      with d as (select * from analytics_agreement_daily g where ${days}),
      sums as (
        select type, lo, hi, sum(samples)::int as samples, sum(matched)::int as matched,
          sum(spans)::int as spans
        from d group by type, lo, hi
      ),
      labels as (
        select type, lo, hi, jsonb_agg(jsonb_build_array(a, b, n)) as labels from (
          select d.type, d.lo, d.hi, (l->>0) collate "C" as a, (l->>1) collate "C" as b,
            sum((l->>2)::int)::int as n
          from d cross join lateral jsonb_array_elements(d.labels) l
          group by 1, 2, 3, 4, 5
        ) x group by type, lo, hi
      )
      select sums.type, sums.lo::text as lo, sums.hi::text as hi, sums.samples, sums.matched,
        sums.spans, labels.labels
      from sums left join labels on labels.type = sums.type and labels.lo = sums.lo
        and labels.hi = sums.hi`,
  );
}

/**
 * The cells of a range. Without a queue or tenant filter (not in the day rows), its whole UTC days
 * from analytics_agreement_daily (028), summed per (type, pair) by PostgreSQL, and the samples of its
 * partial edge days (or of the whole range, when it holds no whole day) from analytics_agreement.
 */
async function rangeCells(
  db: Database,
  filters: AnalyticsFilters,
  from: Date,
  to: Date,
): Promise<readonly Cell[]> {
  const days = wholeUnits(from, to, DAY_MS);
  const type = where(filters, ['type'], 'g');
  if (filters.queue !== undefined || filters.tenant !== undefined || !days.whole) {
    return cells(
      db,
      sql`g.answered_at >= ${from} and g.answered_at < ${to}
      ${where(filters, ['type', 'queue', 'tenant'], 'g')}`,
    );
  }
  const [whole, edges] = await Promise.all([
    dayCells(db, sql`g.day >= ${days.first} and g.day < ${days.last} ${type}`),
    cells(
      db,
      sql`((g.answered_at >= ${from} and g.answered_at < ${days.first})
        or (g.answered_at >= ${days.last} and g.answered_at < ${to})) ${type}`,
    ),
  ]);
  return [...whole, ...edges];
}

/** The cells summed per key: samples, span counts and each label pair's count. */
export function groupBy(rows: readonly Cell[], key: (row: Cell) => string): Map<string, Group> {
  const sums = new Map<string, { samples: number; matched: number; spans: number }>();
  const labels = new Map<string, Map<string, [string, string, number]>>();
  for (const row of rows) {
    const k = key(row);
    const sum = sums.get(k) ?? { samples: 0, matched: 0, spans: 0 };
    sum.samples += num(row.samples);
    sum.matched += num(row.matched);
    sum.spans += num(row.spans);
    sums.set(k, sum);
    const counts = labels.get(k) ?? new Map<string, [string, string, number]>();
    labels.set(k, counts);
    for (const [a, b, n] of (Array.isArray(row.labels) ? row.labels : []) as [
      string,
      string,
      number,
    ][]) {
      const label = JSON.stringify([a, b]);
      const count = counts.get(label);
      if (count) {
        count[2] += num(n);
      } else {
        counts.set(label, [a, b, num(n)]);
      }
    }
  }
  return new Map(
    [...sums].map(([k, sum]) => [k, { ...sum, labels: [...(labels.get(k)?.values() ?? [])] }]),
  );
}

export async function agreementFigures(
  db: Database,
  filters: AnalyticsFilters,
  from: Date,
  to: Date,
  withPeople: boolean,
): Promise<AnalyticsFigures['agreement']> {
  const range = sql`g.answered_at >= ${from} and g.answered_at < ${to}
    ${where(filters, ['type', 'queue', 'tenant'], 'g')}`;
  const [groups, disagreements] = await Promise.all([
    rangeCells(db, filters, from, to),
    sql<Row>`
      select g.sample_job_id, g.job_id, g.type, g.tenant, g.answered_at, g.first_spans,
        g.second_spans, g.matched_spans, g.outcome_differs,
        (select count(*) from jsonb_array_elements(g.category_pairs) p
          where p->>0 <> p->>1)::int as category_disagreements
      from analytics_agreement g
      where ${range}
        and (g.outcome_differs or g.matched_spans <> g.first_spans
          or g.matched_spans <> g.second_spans)
      order by g.answered_at desc, g.sample_job_id limit 100`.execute(db),
  ]);
  const byType = [...groupBy(groups, (row) => row.type)]
    .map(([type, group]) => ({ type, ...scoresOf(group) }))
    .sort((a, b) => a.type.localeCompare(b.type));
  let byPair: AnalyticsFigures['agreement']['byPair'] = null;
  if (withPeople) {
    const pairs = groupBy(groups, (row) => `${row.lo}/${row.hi}`);
    const id = (value: string) => (value === NONE ? '' : value);
    const ids = [...new Set(groups.flatMap((row) => [id(row.lo), id(row.hi)]))].filter(Boolean);
    const names = new Map<string, string>();
    if (ids.length > 0) {
      const users = await sql<{ id: string; name: string }>`
        select id::text as id, coalesce(display_name, email, id::text) as name from users
        where id = any(${ids}::uuid[])`.execute(db);
      for (const user of users.rows) {
        names.set(user.id, user.name);
      }
    }
    const person = (userId: string) => ({ userId, name: names.get(userId) ?? userId });
    byPair = [...pairs]
      .map(([key, group]) => {
        const [first, second] = key
          .split('/')
          .map((value) => person(id(value)))
          .sort((x, y) => x.userId.localeCompare(y.userId));
        return {
          key: `${first?.userId ?? ''}/${second?.userId ?? ''}`,
          pair: {
            first: first ?? { userId: '', name: '' },
            second: second ?? { userId: '', name: '' },
            ...scoresOf(group),
          },
        };
      })
      .sort((a, b) => a.key.localeCompare(b.key))
      .map(({ pair }) => pair);
  }
  return {
    byType,
    byPair,
    disagreements: disagreements.rows.map((row) => ({
      jobId: String(row.job_id),
      sampleJobId: String(row.sample_job_id),
      type: String(row.type),
      tenant: String(row.tenant),
      answeredAt: iso(row.answered_at),
      firstSpans: num(row.first_spans),
      secondSpans: num(row.second_spans),
      matchedSpans: num(row.matched_spans),
      categoryDisagreements: num(row.category_disagreements),
      outcomeDiffers: Boolean(row.outcome_differs),
    })),
  };
}
