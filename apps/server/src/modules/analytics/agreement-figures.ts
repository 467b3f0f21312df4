import { sql, type RawBuilder } from 'kysely';
import type {
  AgreementScores,
  AnalyticsFigures,
  AnalyticsFilters,
} from '@loopdesk/contracts/analytics.ts';
import type { Database } from '../../platform/db/database.ts';
import { kappaOfCounts, roundScore } from './agreement.ts';
import { iso, num, where, type Row } from './query.ts';

/**
 * The agreement figures of a range (docs/analytics.md "Agreement"), summed by PostgreSQL: per
 * group (job type, or pair of technicians) the samples, the span counts F1 is computed from and
 * the count of each (first category, second category) label pair kappa is computed from; and the
 * newest 100 disagreements. Only sums and 100 rows reach Node, whatever the samples of the range.
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

/**
 * Per group of `keys` (columns of analytics_agreement g, as k1 and k2): the samples' sums and the
 * count of each label pair, from the range's samples.
 */
function grouped(db: Database, range: RawBuilder<unknown>, keys: RawBuilder<unknown>) {
  return sql<{
    k1: string;
    k2: string | null;
    samples: number;
    matched: number;
    spans: number;
    labels: unknown;
  }>`
    with s as (
      select ${keys}, g.matched_spans, g.first_spans + g.second_spans as spans, g.category_pairs
      from analytics_agreement g where ${range}
    ),
    sums as (
      select k1, k2, count(*)::int as samples, sum(matched_spans)::int as matched,
        sum(spans)::int as spans
      from s group by k1, k2
    ),
    labels as (
      select k1, k2, jsonb_agg(jsonb_build_array(a, b, n)) as labels from (
        select s.k1, s.k2, p->>0 as a, p->>1 as b, count(*)::int as n
        from s cross join lateral jsonb_array_elements(s.category_pairs) p
        group by s.k1, s.k2, a, b
      ) x group by k1, k2
    )
    select sums.k1::text as k1, sums.k2::text as k2, sums.samples, sums.matched, sums.spans,
      labels.labels
    from sums left join labels on labels.k1 = sums.k1
      and labels.k2 = sums.k2`.execute(db);
}

/** A technician of a pair: their id, or the nil uuid for none (shown as ''). */
const NONE = '00000000-0000-0000-0000-000000000000';

const groupOf = (row: { samples: number; matched: number; spans: number; labels: unknown }) => ({
  samples: num(row.samples),
  matched: num(row.matched),
  spans: num(row.spans),
  labels: (Array.isArray(row.labels) ? row.labels : []) as [string, string, number][],
});

export async function agreementFigures(
  db: Database,
  filters: AnalyticsFilters,
  from: Date,
  to: Date,
  withPeople: boolean,
): Promise<AnalyticsFigures['agreement']> {
  const range = sql`g.answered_at >= ${from} and g.answered_at < ${to}
    ${where(filters, ['type', 'queue', 'tenant'], 'g')}`;
  // A pair is the two technicians whatever their order.
  const [one, two] = [sql`coalesce(g.first_user, ${NONE})`, sql`coalesce(g.second_user, ${NONE})`];
  const [types, pairs, disagreements] = await Promise.all([
    grouped(db, range, sql`g.type as k1, '' as k2`),
    withPeople
      ? grouped(db, range, sql`least(${one}, ${two}) as k1, greatest(${one}, ${two}) as k2`)
      : Promise.resolve(null),
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
  const byType = types.rows
    .map((row) => ({ type: row.k1, ...scoresOf(groupOf(row)) }))
    .sort((a, b) => a.type.localeCompare(b.type));
  let byPair: AnalyticsFigures['agreement']['byPair'] = null;
  if (pairs) {
    const id = (value: string | null) => (value === null || value === NONE ? '' : value);
    const ids = [...new Set(pairs.rows.flatMap((row) => [id(row.k1), id(row.k2)]))].filter(Boolean);
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
    byPair = pairs.rows
      .map((row) => {
        const [first, second] = [id(row.k1), id(row.k2)]
          .map(person)
          .sort((x, y) => x.userId.localeCompare(y.userId));
        return {
          key: `${first?.userId ?? ''}/${second?.userId ?? ''}`,
          pair: {
            first: first ?? { userId: '', name: '' },
            second: second ?? { userId: '', name: '' },
            ...scoresOf(groupOf(row)),
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
