import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import { hourOf, ORIGIN } from './hour-rollups.ts';

/**
 * The count rollups of the refresh (rollups.ts) changed by the jobs whose rows changed, instead of
 * summed again from every job of their hours and days: each job adds its counts to the rows of
 * its hours and day, and a changed job's old row takes its old counts away (`sign` -1). A row's
 * counts are then what summing its jobs gives, at the cost of the changed jobs alone.
 */

/** Arrivals, answers and ends per hour, queue, job type and tenant (analytics_hourly). */
export interface HourlyChange {
  readonly hour: string;
  readonly queue: string;
  readonly type: string;
  readonly tenant: string;
  readonly arrivals: number;
  readonly completions: number;
  readonly ended: number;
}

/** Outcomes per arrival day, job type, queue and tenant (analytics_outcomes). */
export interface OutcomeChange {
  readonly day: string;
  readonly type: string;
  readonly queue: string;
  readonly tenant: string;
  readonly jobs: number;
  readonly completed: number;
  readonly exceptions: number;
  readonly cancelled: number;
  readonly dead: number;
  readonly requeues: number;
}

/**
 * The changes of `rows` (analytics_jobs rows with a `sign`) to analytics_hourly: a job counts as
 * an arrival in its arrival hour, an answer in its answer's and an end in its end's.
 */
export const hourlyChanges = (rows: RawBuilder<unknown>) => sql`
  select hour, queue, type, tenant, sum(a)::int as arrivals, sum(c)::int as completions,
    sum(e)::int as ended
  from (
    select ${hourOf('created_at')} as hour, queue, type, tenant, sign as a, 0 as c, 0 as e
      from ${rows} r
    union all
    select ${hourOf('answered_at')}, queue, type, tenant, 0, sign, 0
      from ${rows} r where answered_at is not null
    union all
    select ${hourOf('ended_at')}, queue, type, tenant, 0, 0, sign
      from ${rows} r where ended_at is not null
  ) x
  group by 1, 2, 3, 4`;

/** The changes of `rows` (analytics_jobs rows with a `sign`) to analytics_outcomes. */
export const outcomeChanges = (rows: RawBuilder<unknown>) => sql`
  select date_bin('1 day', created_at, ${ORIGIN}) as day, type, queue, tenant,
    sum(sign)::int as jobs,
    sum(case when outcome = 'completed' then sign else 0 end)::int as completed,
    sum(case when exception then sign else 0 end)::int as exceptions,
    sum(case when outcome = 'cancelled' then sign else 0 end)::int as cancelled,
    sum(case when dead > 0 then sign else 0 end)::int as dead,
    sum(sign * requeues)::int as requeues
  from ${rows} r
  group by 1, 2, 3, 4`;

/**
 * Adds the changes to `table`'s rows by `keys` (summed first: several batches may change one
 * row), then takes away the rows left with nothing counted: a row exists while a job counts in it,
 * as when it is summed from its jobs.
 */
async function apply(
  trx: Database,
  table: 'analytics_hourly' | 'analytics_outcomes',
  keys: readonly string[],
  counts: readonly string[],
  types: string,
  changes: readonly object[],
) {
  if (changes.length === 0) {
    return;
  }
  const t = sql.table(table);
  const k = sql.join(keys.map((key) => sql.ref(key)));
  const c = sql.join(counts.map((count) => sql.ref(count)));
  const json = JSON.stringify(changes);
  const rows = sql`jsonb_to_recordset(${json}::jsonb) as x(${sql.raw(types)})`;
  await sql`
    insert into ${t} as s (${k}, ${c})
    select ${k}, ${sql.join(counts.map((count) => sql`sum(${sql.ref(count)})::int`))}
    from ${rows}
    group by ${k}
    on conflict (${k}) do update set
      ${sql.join(counts.map((count) => sql`${sql.ref(count)} = ${sql.ref(`s.${count}`)} + ${sql.ref(`excluded.${count}`)}`))}`.execute(
    trx,
  );
  await sql`
    delete from ${t} s using (select distinct ${k} from ${rows}) x
    where ${sql.join(
      keys.map((key) => sql`${sql.ref(`s.${key}`)} = ${sql.ref(`x.${key}`)}`),
      sql` and `,
    )}
      and ${sql.join(
        counts.map((count) => sql`${sql.ref(`s.${count}`)} = 0`),
        sql` and `,
      )}`.execute(trx);
}

/**
 * analytics_hourly changed, then analytics_queue_hourly (per hour and queue) summed again from it
 * for the hours changed.
 */
export async function applyHourlyChanges(trx: Database, changes: readonly HourlyChange[]) {
  await apply(
    trx,
    'analytics_hourly',
    ['hour', 'queue', 'type', 'tenant'],
    ['arrivals', 'completions', 'ended'],
    'hour timestamptz, queue text, type text, tenant text, arrivals integer, completions integer, ended integer',
    changes,
  );
  const hours = [...new Set(changes.map((change) => change.hour))];
  if (hours.length === 0) {
    return;
  }
  await sql`delete from analytics_queue_hourly where hour = any(${hours}::timestamptz[])`.execute(
    trx,
  );
  await sql`
    insert into analytics_queue_hourly (hour, queue, arrivals, completions, ended)
    select hour, queue, sum(arrivals)::int, sum(completions)::int, sum(ended)::int
    from analytics_hourly where hour = any(${hours}::timestamptz[]) group by hour, queue`.execute(
    trx,
  );
}

export async function applyOutcomeChanges(trx: Database, changes: readonly OutcomeChange[]) {
  await apply(
    trx,
    'analytics_outcomes',
    ['day', 'type', 'queue', 'tenant'],
    ['jobs', 'completed', 'exceptions', 'cancelled', 'dead', 'requeues'],
    'day timestamptz, type text, queue text, tenant text, jobs integer, completed integer, exceptions integer, cancelled integer, dead integer, requeues integer',
    changes,
  );
}
