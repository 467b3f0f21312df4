/**
 * bench/analytics: 1,000,000 generated job events on PostgreSQL (a database of its own), then the
 * analytics dashboard's queries (modules/analytics/figures.ts, over the rollups of migrations 022-027)
 * against the same figures computed over the raw events (jobs, outbox_events, audit_events), each
 * run BENCH_RUNS times per filter set: p50/p95 per side and their ratio. Also the rollups' full
 * build and an incremental refresh after new events. Per filter set it also prints when each of the
 * view's queries answered (they run side by side) and each one's time alone, slowest first, so
 * the query that dominates is named. A reused database (BENCH_REUSE=1) gets the new migrations
 * (each backfills its rollups) and a refresh; every run then does `vacuum analyze` before the
 * views, as autovacuum would. Not a test: nothing here asserts.
 *
 *   npm run bench:analytics   (BENCH_DATABASE_URL, BENCH_EVENTS, BENCH_RUNS, BENCH_ALONE=0)
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AnalyticsFilters } from '@loopdesk/contracts/analytics.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { migrateToLatest } from '../apps/server/src/platform/db/migrate.ts';
import {
  desk,
  discards,
  oldest,
  outcomes,
  queueFigures,
} from '../apps/server/src/modules/analytics/activity.ts';
import { agreementFigures } from '../apps/server/src/modules/analytics/agreement-figures.ts';
import { durations, people } from '../apps/server/src/modules/analytics/durations.ts';
import { readFigures } from '../apps/server/src/modules/analytics/figures.ts';
import { createRollups } from '../apps/server/src/modules/analytics/rollups.ts';
import { dropDatabase, freshDatabase } from './databases.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** Events per job on average: created, delivered, submitted, completed, and some requeues/deaths. */
const EVENTS_PER_JOB = 3.85;
const DAYS = 30;
/** A database name of one's own (default a random one); with BENCH_REUSE=1 its history is reused. */
const DB_NAME = process.env.BENCH_DB;
const REUSE = process.env.BENCH_REUSE === '1' && DB_NAME !== undefined;
/** Also time each of the view's queries alone, one after the other (BENCH_ALONE=0 to skip). */
const ALONE = process.env.BENCH_ALONE !== '0';
const ALONE_RUNS = 7;
/** Keep the database afterwards (to run again with BENCH_REUSE=1). */
const KEEP = process.env.BENCH_KEEP === '1' || REUSE;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function main() {
  const name = DB_NAME ?? `bench_analytics_${randomBytes(4).toString('hex')}`;
  const url = await freshDatabase(name, { reuse: REUSE });
  const database = await openDatabase({
    databaseUrl: url,
    pgliteDataDir: 'memory://',
    webhookDeliveries: false,
  });
  try {
    await migrateToLatest(database);
    const db = database.db;
    const rollups = createRollups(db);
    if (!REUSE) {
      await generate(db);
      console.log(`rollups, full build: ${ms(await time(() => rollups.refresh()))}`);
    }
    console.log(`rollups, refresh with nothing new: ${ms(await time(() => rollups.refresh()))}`);
    // What autovacuum does to a live database (statistics, the visibility map that lets the
    // queued jobs be counted from an index alone): the shared PostgreSQL here runs with
    // autovacuum off, and a reused database may have new tables from new migrations.
    const vacuumed = await time(() => sql`vacuum analyze`.execute(db));
    console.log(`vacuum analyze (autovacuum's work, before the views): ${ms(vacuumed)}`);

    const now = Date.now();
    const day = 86_400_000;
    const sets: [string, AnalyticsFilters][] = [
      ['last 24 h', { from: new Date(now - day).toISOString(), to: new Date(now).toISOString() }],
      [
        'last 7 days',
        { from: new Date(now - 7 * day).toISOString(), to: new Date(now).toISOString() },
      ],
      [
        'last 30 days',
        { from: new Date(now - 31 * day).toISOString(), to: new Date(now).toISOString() },
      ],
      [
        '30 days, one type and tenant',
        {
          from: new Date(now - 31 * day).toISOString(),
          to: new Date(now).toISOString(),
          type: 'message.annotation',
          tenant: 'tenant-3',
        },
      ],
    ];
    const ratios: number[] = [];
    const rollupP95: number[] = [];
    for (const [label, filters] of sets) {
      const fast: number[] = [];
      const slow: number[] = [];
      // Per query of the view: when it answered, ms from the view's start (they run side by side).
      const parts = new Map<string, number[]>();
      for (let i = 0; i < RUNS; i++) {
        // As the route reads them: the time of the last refresh (it keys the filter options).
        const timings: Record<string, number> = {};
        fast.push(
          await time(async () =>
            readFigures(db, filters, {
              people: true,
              refreshedAt: await rollups.refreshedAt(),
              timings,
            }),
          ),
        );
        for (const [part, at] of Object.entries(timings)) {
          parts.set(part, [...(parts.get(part) ?? []), at]);
        }
        if (i < Math.max(3, Math.ceil(RUNS / 4))) {
          slow.push(await time(() => rawFigures(db, filters)));
        }
      }
      const f95 = percentile(fast, 0.95);
      const s95 = percentile(slow, 0.95);
      ratios.push(s95 / f95);
      rollupP95.push(f95);
      console.log(
        `${label}: rollups p50 ${ms(percentile(fast, 0.5))} p95 ${ms(f95)} | raw events p50 ${ms(percentile(slow, 0.5))} p95 ${ms(s95)} | ${(s95 / f95).toFixed(1)}× faster`,
      );
      // The queries that kept the view waiting longest (median answer time within the view).
      const slowest = [...parts]
        .map(([part, values]) => [part, percentile(values, 0.5)] as const)
        .sort(([, a], [, b]) => b - a);
      console.log(
        `  queries answered at (p50, ms from the view's start): ${slowest.map(([part, at]) => `${part} ${at.toFixed(0)}`).join(', ')}`,
      );
      if (ALONE) {
        console.log(
          `  each alone (p50 of ${ALONE_RUNS}): ${(await alone(db, filters)).join(', ')}`,
        );
      }
    }
    console.log(
      `dashboard p95, worst filter set: ${ms(Math.max(...rollupP95))} (goal: under 200 ms)`,
    );
  } finally {
    await database.close();
    if (!KEEP) {
      await dropDatabase(name);
    }
  }
}

/** Each of the view's queries run alone ALONE_RUNS times: its p50, slowest first. */
async function alone(db: Parameters<typeof readFigures>[0], filters: AnalyticsFilters) {
  const from = new Date(filters.from);
  const to = new Date(filters.to);
  const parts: [string, () => Promise<unknown>][] = [
    ['queues', () => queueFigures(db, filters, from, to)],
    ['oldest', () => oldest(db, filters)],
    ['durations', () => durations(db, filters, from, to)],
    ['desk', () => desk(db, filters, from, to)],
    ['outcomes', () => outcomes(db, filters, from, to)],
    ['discards', () => discards(db, filters, from, to)],
    ['people', () => people(db, filters, from, to)],
    ['agreement', () => agreementFigures(db, filters, from, to, true)],
  ];
  const results: [string, number][] = [];
  for (const [part, run] of parts) {
    const times: number[] = [];
    for (let i = 0; i < ALONE_RUNS; i++) {
      times.push(await time(run));
    }
    results.push([part, percentile(times, 0.5)]);
  }
  return results.sort(([, a], [, b]) => b - a).map(([part, p50]) => `${part} ${p50.toFixed(0)}`);
}

/** 1,000,000 job events (EVENTS) over the last DAYS days, as the server writes them. */
async function generate(db: Parameters<typeof readFigures>[0]) {
  const jobs = Math.round(EVENTS / EVENTS_PER_JOB);
  const started = performance.now();
  await sql`
    insert into users (email, roles)
    select 'tech' || n || '@bench.test', '{annotator}' from generate_series(1, 40) n`.execute(db);
  // Jobs over the last DAYS days: 90% completed, 4% cancelled, 2% dead, the rest open.
  await sql`
    insert into jobs (id, queue, type, tenant, payload, state, attempts, assignee_id, result,
      queued_at, created_at, updated_at, completed_at)
    select gen_random_uuid(), q.queue, q.type, 'tenant-' || (n % 7), '{}'::jsonb,
      case when r < 0.90 then 'completed' when r < 0.94 then 'cancelled' when r < 0.96 then 'dead'
        else 'queued' end,
      1, case when r < 0.90 then u.id end,
      case when r < 0.90 then jsonb_build_object('type',
        case when n % 23 = 0 then q.type || '.exception' else q.type end, 'data', '{}'::jsonb) end,
      t, t, t + interval '10 minutes',
      case when r < 0.90 then t + make_interval(secs => 5 + (n % 600) + (n % 97) * 3) end
    from (
      select n, random() as r,
        now() - make_interval(secs => (random() * ${DAYS} * 86400)::int) as t
      from generate_series(1, ${jobs}) n
    ) g
    cross join lateral (
      select (array['federated', 'federated', 'priority', 'hpi-summarisation'])[1 + n % 4] as queue,
        (array['message.annotation', 'message.rephrase.question', 'hpi.prioritised',
          'hpi.summary', 'rpa.robot'])[1 + n % 5] as type
    ) q
    cross join lateral (select id from users order by id offset (n % 40) limit 1) u`.execute(db);
  await sql`
    insert into outbox_events (type, job_id, data, created_at)
    select 'job.created', id, '{}'::jsonb, created_at from jobs
    union all
    select 'job.completed', id, '{}'::jsonb, completed_at from jobs where state = 'completed'
    union all
    select 'job.cancelled', id, '{}'::jsonb, updated_at from jobs where state = 'cancelled'
    union all
    select 'job.dead', id, '{}'::jsonb, updated_at from jobs where state = 'dead'
    union all
    select 'job.requeued', id, '{}'::jsonb, created_at + interval '1 minute' from jobs
      where state = 'completed' and (extract(epoch from created_at)::bigint % 10) = 0`.execute(db);
  await sql`
    insert into audit_events (occurred_at, actor_id, action, resource_type, resource_id, outcome, details)
    select created_at + make_interval(secs => 2 + (extract(epoch from created_at)::bigint % 120)),
      assignee_id, 'job.delivered', 'job', id::text, 'success', '{}'::jsonb
    from jobs where state = 'completed'
    union all
    select completed_at, assignee_id, 'job.submitted', 'job', id::text, 'success', '{}'::jsonb
    from jobs where state = 'completed'`.execute(db);
  // Agreement samples: 5% of the completed federated annotations, answered again by another
  // technician (spans that agree in part), as the federated engine queues them.
  await sql`
    insert into jobs (queue, type, tenant, payload, state, attempts, assignee_id, result,
      queued_at, created_at, updated_at, completed_at, agreement_of, agreement_exclude)
    select j.queue, j.type, j.tenant, '{}'::jsonb, 'completed', 1, u.id,
      jsonb_build_object('type', j.type, 'data', jsonb_build_object('action', 'answer',
        'entities', jsonb_build_array(
          jsonb_build_object('start', 0, 'end', 5, 'extract', 'x', 'category', 'symptom'),
          jsonb_build_object('start', 6, 'end', 9, 'extract', 'x',
            'category', case when j.seq % 3 = 0 then 'drug' else 'symptom' end)))),
      j.completed_at, j.completed_at, j.completed_at + interval '5 minutes',
      j.completed_at + interval '5 minutes', j.id, j.assignee_id
    from jobs j
    cross join lateral (select id from users where id <> j.assignee_id order by id
      offset (j.seq % 39) limit 1) u
    where j.queue = 'federated' and j.state = 'completed' and j.type = 'message.annotation'
      and j.seq % 20 = 0`.execute(db);
  await sql`
    update jobs set result = jsonb_build_object('type', type, 'data', jsonb_build_object(
      'action', 'answer', 'entities', jsonb_build_array(
        jsonb_build_object('start', 0, 'end', 5, 'extract', 'x', 'category', 'symptom'),
        jsonb_build_object('start', 6, 'end', 9, 'extract', 'x', 'category', 'symptom'))))
    where id in (select agreement_of from jobs where agreement_of is not null)`.execute(db);
  await sql`analyze`.execute(db);
  const counts = await sql<{ outbox: number; audit: number; jobs: number }>`
    select (select count(*)::int from outbox_events) as outbox,
      (select count(*)::int from audit_events) as audit, (select count(*)::int from jobs) as jobs`.execute(
    db,
  );
  const c = counts.rows[0] ?? { outbox: 0, audit: 0, jobs: 0 };
  console.log(`jobs: ${c.jobs}`);
  console.log(`events: ${c.outbox + c.audit} (outbox ${c.outbox}, audit ${c.audit})`);
  console.log(`generated in: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The same figures straight from the raw events: per-job times from the audit rows and jobs,
 * hourly arrivals and completions, outcomes with requeues and deaths from the outbox, people.
 */
async function rawFigures(db: Parameters<typeof readFigures>[0], filters: AnalyticsFilters) {
  const from = new Date(filters.from);
  const to = new Date(filters.to);
  const type = filters.type ?? null;
  const tenant = filters.tenant ?? null;
  const base = sql`
    select j.*, d.first_at, d.last_at,
      (select count(*) from outbox_events o where o.job_id = j.id and o.type = 'job.requeued') as requeues,
      (select count(*) from outbox_events o where o.job_id = j.id and o.type = 'job.dead') as dead
    from jobs j
    left join lateral (
      select min(a.occurred_at) as first_at, max(a.occurred_at) as last_at from audit_events a
      where a.resource_type = 'job' and a.resource_id = j.id::text and a.action = 'job.delivered'
    ) d on true
    where j.created_at >= ${from} and j.created_at < ${to}
      and (${type}::text is null or j.type = ${type}) and (${tenant}::text is null or j.tenant = ${tenant})`;
  const p = sql.raw('array[0.5, 0.9, 0.99]');
  await Promise.all([
    sql`with x as (${base}) select type,
        percentile_cont(${p}) within group (order by extract(epoch from first_at - created_at)::float8),
        percentile_cont(${p}) within group (order by extract(epoch from completed_at - last_at)::float8),
        percentile_cont(${p}) within group (order by extract(epoch from completed_at - created_at)::float8),
        count(*) filter (where state = 'completed'), count(*) filter (where result->>'type' like '%.exception'),
        count(*) filter (where state = 'cancelled'), count(*) filter (where dead > 0), sum(requeues)
      from x group by type`.execute(db),
    sql`select date_bin('1 hour', t, timestamptz '2000-01-01'), sum(a), sum(c) from (
        select o.created_at as t, 1 as a, 0 as c from outbox_events o join jobs j on j.id = o.job_id
        where o.type = 'job.created' and o.created_at >= ${from} and o.created_at < ${to}
          and (${type}::text is null or j.type = ${type}) and (${tenant}::text is null or j.tenant = ${tenant})
        union all
        select o.created_at, 0, 1 from outbox_events o join jobs j on j.id = o.job_id
        where o.type = 'job.completed' and o.created_at >= ${from} and o.created_at < ${to}
          and (${type}::text is null or j.type = ${type}) and (${tenant}::text is null or j.tenant = ${tenant})
      ) x group by 1 order by 1`.execute(db),
    sql`select a.actor_id, count(*), count(distinct date_bin('1 hour', a.occurred_at, timestamptz '2000-01-01'))
      from audit_events a join jobs j on j.id::text = a.resource_id
      where a.action = 'job.submitted' and a.occurred_at >= ${from} and a.occurred_at < ${to}
        and (${type}::text is null or j.type = ${type}) and (${tenant}::text is null or j.tenant = ${tenant})
      group by a.actor_id`.execute(db),
  ]);
}

await main();
