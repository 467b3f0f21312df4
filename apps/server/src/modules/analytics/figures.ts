import { sql } from 'kysely';
import type { AnalyticsFigures, AnalyticsFilters } from '@loopdesk/contracts/analytics.ts';
import { QUEUES } from '@loopdesk/contracts/jobs.ts';
import type { Database } from '../../platform/db/database.ts';
import { badRequest } from '../../platform/errors.ts';
import { desk, discards, oldest, outcomes, queueFigures } from './activity.ts';
import { agreementFigures } from './agreement-figures.ts';
import { durations, people } from './durations.ts';
import { iso, num, percentiles } from './query.ts';

/**
 * The dashboard's figures (issue 16): its queries run side by side, each over the rollups of
 * migrations 022 and 025-028 (and the live queue for the oldest waiting job); see
 * activity.ts (queues, desk, outcomes), durations.ts (times, people) and agreement-figures.ts.
 */

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

type Options = Awaited<ReturnType<typeof options>>;

/** Refuses a job type, queue or tenant nobody has seen: a clear 400 that lists what exists. */
function checkKnown(filters: AnalyticsFilters, known: Options) {
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

/**
 * The filter options change only when the rollups are refreshed: kept per database and refresh
 * (every node reads the same `refreshed_at`), so a view does not scan the hourly rollup for them.
 */
const optionsCache = new WeakMap<Database, { at: number; known: Promise<Options> }>();

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

export async function readFigures(
  db: Database,
  filters: AnalyticsFilters,
  context: {
    people: boolean;
    refreshedAt: Date | null;
    /** When given, each query's time (ms from the view's start to its answer) is put here. */
    timings?: Record<string, number>;
  },
): Promise<AnalyticsFigures> {
  const started = performance.now();
  const timed = <T>(name: string, query: Promise<T>): Promise<T> => {
    const timings = context.timings;
    return timings
      ? query.then((value) => {
          timings[name] = performance.now() - started;
          return value;
        })
      : query;
  };
  const known = await timed('options', cachedOptions(db, context.refreshedAt));
  checkKnown(filters, known);
  const from = new Date(filters.from);
  const to = new Date(filters.to);

  const [queues, waiting, times, deskRows, outcomeRows, discardRows, peopleRows, agreement] =
    await Promise.all([
      timed('queues', queueFigures(db, filters, from, to)),
      timed('oldest', oldest(db, filters)),
      timed('durations', durations(db, filters, from, to)),
      timed('desk', desk(db, filters, from, to)),
      timed('outcomes', outcomes(db, filters, from, to)),
      timed('discards', discards(db, filters, from, to)),
      context.people ? timed('people', people(db, filters, from, to)) : Promise.resolve(null),
      timed('agreement', agreementFigures(db, filters, from, to, context.people)),
    ]);

  const deskRow = deskRows.rows[0] ?? {};
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
      depth: queues.depth,
      hourly: queues.hourly,
      oldest: waiting.rows.map((r) => ({
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
    outcomes: outcomeRows.rows.map((r) => ({
      type: String(r.type),
      completed: num(r.completed),
      exceptions: num(r.exceptions),
      cancelled: num(r.cancelled),
      dead: num(r.dead),
      requeues: num(r.requeues),
    })),
    discards: discardRows.rows.map((r) => ({
      type: String(r.type),
      discards: num(r.discards),
      withNotes: num(r.notes),
    })),
    people: peopleRows
      ? peopleRows.rows.map((r) => {
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
    agreement,
  };
}
