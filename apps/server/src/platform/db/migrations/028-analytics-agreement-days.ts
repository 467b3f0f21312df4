import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Analytics, agreement per day (issue 16): per answer day, job type and pair of technicians
 * (whatever their order; the nil uuid for none) the samples, the span counts F1 is computed from
 * and the count of each (first category, second category) label pair kappa is computed from, as
 * `[[first, second, items], …]`. A view without a queue or tenant filter reads its whole days
 * here (a row per day and pair that answered samples, never more rows than samples) and only the
 * samples of its partial edge days from `analytics_agreement` (modules/analytics/agreement-figures.ts).
 * Backfilled from analytics_agreement: no refresh needed. Categories and counts only. Also two
 * indexes of analytics_hourly for the filtered queue charts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analytics_agreement_daily (
      day timestamptz not null,
      type text not null,
      lo uuid not null,
      hi uuid not null,
      samples integer not null,
      matched integer not null,
      spans integer not null,
      labels jsonb not null,
      primary key (day, type, lo, hi)
    );
    -- The queue charts of a view filtered by job type or tenant read analytics_hourly (the
    -- per-queue hours otherwise): these read the range's hours of that type or tenant only, not
    -- every row of the range (a month: 72,000 rows for 2,000 on the bench history).
    create index analytics_hourly_type_hour_idx on analytics_hourly (type, hour);
    create index analytics_hourly_tenant_hour_idx on analytics_hourly (tenant, hour);
  `.execute(db);
  await sql`
    insert into analytics_agreement_daily (day, type, lo, hi, samples, matched, spans, labels)
    ${agreementDays(sql`true`)}`.execute(db);
}

/**
 * The day rows of the samples `where` selects (a condition on `g`, analytics_agreement): the
 * refresh (modules/analytics/rollups.ts) rebuilds the days of new samples with it too.
 */
export function agreementDays(where: RawBuilder<unknown>) {
  const nil = sql`'00000000-0000-0000-0000-000000000000'::uuid`;
  const [one, two] = [sql`coalesce(g.first_user, ${nil})`, sql`coalesce(g.second_user, ${nil})`];
  return sql`
    with s as materialized (
      select date_bin('1 day', g.answered_at, timestamptz '2000-01-01 00:00:00+00') as day, g.type,
        least(${one}, ${two}) as lo, greatest(${one}, ${two}) as hi, g.matched_spans,
        g.first_spans + g.second_spans as spans, g.category_pairs
      from analytics_agreement g where ${where}
    ),
    sums as (
      select day, type, lo, hi, count(*)::int as samples, sum(matched_spans)::int as matched,
        sum(spans)::int as spans
      from s group by day, type, lo, hi
    ),
    labels as (
      select day, type, lo, hi, jsonb_agg(jsonb_build_array(a, b, n) order by a, b) as labels
      from (
        select s.day, s.type, s.lo, s.hi, (p->>0) collate "C" as a, (p->>1) collate "C" as b,
          count(*)::int as n
        from s cross join lateral jsonb_array_elements(s.category_pairs) p
        group by 1, 2, 3, 4, 5, 6
      ) x group by day, type, lo, hi
    )
    select sums.day, sums.type, sums.lo, sums.hi, sums.samples, sums.matched, sums.spans,
      coalesce(labels.labels, '[]'::jsonb)
    from sums left join labels on labels.day = sums.day and labels.type = sums.type
      and labels.lo = sums.lo and labels.hi = sums.hi`;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index analytics_hourly_type_hour_idx, analytics_hourly_tenant_hour_idx;
    drop table analytics_agreement_daily;
  `.execute(db);
}
