import { sql } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import { agreementDays } from '../../platform/db/migrations/028-analytics-agreement-days.ts';
import { compareAnswers } from './agreement.ts';
import {
  applyDurationChanges,
  dayOf,
  durationChanges,
  ORIGIN,
  refreshPeople,
  type DurationChange,
} from './hour-rollups.ts';
import {
  applyHourlyChanges,
  applyOutcomeChanges,
  hourlyChanges,
  outcomeChanges,
  type HourlyChange,
  type OutcomeChange,
} from './counts.ts';

export { BUCKET_BASE, bucketOf } from './hour-rollups.ts';

/**
 * Brings the analytics rollups (migrations 022-027) up to date from the job events (outbox), the
 * jobs and the audit rows. Incremental: each run recomputes only the jobs and conversations
 * touched since the last run (less a margin for transactions that committed late), and changes the
 * hour and day rollups by the jobs whose rows changed, so a run costs what changed, not the whole
 * history nor the whole day. Runs of several nodes are kept apart by an advisory lock.
 */

/**
 * Events written up to this long before a run's start are looked at again by the next run. A run
 * covers no further than the start of the oldest transaction still running (a row is stamped with
 * its transaction's start, `now()`, and becomes visible at its commit), so the margin is only for
 * rows stamped by a node's clock instead of the database's. The 5 minutes it was made each run
 * every 30 s recompute every job ten times over, and at 100 jobs/s that work stalled the job
 * path's commits (bench/README.md, cluster).
 */
const MARGIN = '10 seconds';

/** Jobs recomputed by one statement of a run, and the pause after each (see `refresh`). */
const BATCH = 500;
const PAUSE_MS = 20;

const JOB_COLUMNS = [
  'queue',
  'type',
  'tenant',
  'created_at',
  'first_delivered_at',
  'last_delivered_at',
  'answered_at',
  'answered_by',
  'exception',
  'outcome',
  'ended_at',
  'requeues',
  'dead',
  'wait_s',
  'handle_s',
  'total_s',
] as const;

/**
 * These jobs' rows of analytics_jobs computed again from the job, its deliveries (audit) and its
 * events (outbox); only the rows whose figures changed are written. Answers the arrival hours of
 * those rows, and the changes they make to the duration histograms (their old rows taken away,
 * their new ones added: the statement's snapshot reads the rows as they were before it).
 */
async function recomputeJobs(trx: Database, ids: string[]) {
  const row = (table: string) => sql.join(JOB_COLUMNS.map((c) => sql.ref(`${table}.${c}`)));
  const result = await sql<{
    jobs: number;
    durations: DurationChange[] | null;
    hourly: HourlyChange[] | null;
    outcomes: OutcomeChange[] | null;
  }>`
    with old as (
      select job_id, ${sql.join(JOB_COLUMNS.map((c) => sql.ref(c)))} from analytics_jobs
      where job_id = any(${ids}::uuid[])
    ),
    written as (
    insert into analytics_jobs (job_id, ${sql.join(JOB_COLUMNS.map((c) => sql.ref(c)))})
    select j.id, j.queue, j.type, j.tenant, j.created_at, d.first_at, d.last_at,
      case when j.state = 'completed' then j.completed_at end,
      case when j.state = 'completed' then j.assignee_id end,
      -- An exception: its own submission type, or an annotation whose action escalates or forgets.
      coalesce(j.state = 'completed' and (j.result->>'type' like '%.exception'
        or j.result->'data'->>'action' in ('exception', 'suggest_escalation', 'suggest_forget')), false),
      case when j.state in ('completed', 'cancelled', 'dead') then j.state end,
      case j.state when 'completed' then j.completed_at
        when 'cancelled' then coalesce(e.cancelled_at, j.updated_at)
        when 'dead' then coalesce(e.dead_at, j.updated_at) end,
      coalesce(e.requeues, 0), coalesce(e.dead, 0),
      extract(epoch from d.first_at - j.created_at)::float8,
      case when j.state = 'completed' then extract(epoch from j.completed_at - d.last_at)::float8 end,
      case when j.state = 'completed' then extract(epoch from j.completed_at - j.created_at)::float8 end
    from jobs j
    left join lateral (
      select min(a.occurred_at) as first_at, max(a.occurred_at) as last_at from audit_events a
      where a.resource_type = 'job' and a.resource_id = j.id::text and a.action = 'job.delivered'
    ) d on true
    left join lateral (
      select
        -- Returned by the server (socket closed, lease ended), not a lead's requeue of a dead job.
        count(*) filter (where o.type = 'job.requeued' and not (o.data ? 'requeuedBy'))::int as requeues,
        count(*) filter (where o.type = 'job.dead')::int as dead,
        max(o.created_at) filter (where o.type = 'job.cancelled') as cancelled_at,
        max(o.created_at) filter (where o.type = 'job.dead') as dead_at
      from outbox_events o where o.job_id = j.id
    ) e on true
    where j.id = any(${ids}::uuid[])
    order by j.created_at
    on conflict (job_id) do update set
      ${sql.join(JOB_COLUMNS.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}
    where (${row('analytics_jobs')}) is distinct from (${row('excluded')})
    returning job_id, ${sql.join(JOB_COLUMNS.map((c) => sql.ref(c)))}
    ),
    -- Each written job's new row counted in, its old one (if any) counted out.
    signed as (
      select w.*, 1 as sign from written w
      union all
      select o.*, -1 from old o where o.job_id in (select job_id from written)
    )
    select (select count(*)::int from written) as jobs,
      (select jsonb_agg(c) from (${durationChanges(sql`signed`)}) c) as durations,
      (select jsonb_agg(c) from (${hourlyChanges(sql`signed`)}) c) as hourly,
      (select jsonb_agg(c) from (${outcomeChanges(sql`signed`)}) c) as outcomes`.execute(trx);
  const first = result.rows[0];
  const iso = (time: string) => new Date(time).toISOString();
  return {
    jobs: first?.jobs ?? 0,
    durations: (first?.durations ?? []).map((c) => ({ ...c, hour: iso(c.hour) })),
    hourly: (first?.hourly ?? []).map((c) => ({ ...c, hour: iso(c.hour) })),
    outcomes: (first?.outcomes ?? []).map((c) => ({ ...c, day: iso(c.day) })),
  };
}

export interface RefreshResult {
  /** Jobs whose rows were written (new or changed). */
  readonly jobs: number;
  /** Another run held the lock and this one did nothing (`skipIfRunning`). */
  readonly skipped?: boolean;
}

export interface RefreshOptions {
  /**
   * When another run holds the lock (another node's), return at once without running: that run
   * covers what this one would have (the background timer's choice). Otherwise wait for it, then
   * cover what it left.
   */
  readonly skipIfRunning?: boolean;
}

export function createRollups(db: Database) {
  async function refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    return db.transaction().execute(async (trx) => {
      // Derived data: a run lost to a crash is lost with its covered_until and done again, so
      // its commit need not wait for the disk (nor make the job path's commits wait behind it).
      await sql`set local synchronous_commit = off`.execute(trx);
      // One run at a time across nodes.
      if (options.skipIfRunning) {
        const locked = await sql<{ locked: boolean }>`
          select pg_try_advisory_xact_lock(hashtext('loopdesk.analytics.refresh')) as locked`.execute(
          trx,
        );
        if (!locked.rows[0]?.locked) {
          return { jobs: 0, skipped: true };
        }
      } else {
        await sql`select pg_advisory_xact_lock(hashtext('loopdesk.analytics.refresh'))`.execute(
          trx,
        );
      }
      // The covered end (see above): no transaction that began before it is still running.
      const state = await sql<{ since: Date | null; start: Date }>`
        select (select covered_until - interval '${sql.raw(MARGIN)}' from analytics_refresh where id = 1) as since,
          least(now(), (
            select min(xact_start) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and backend_type = 'client backend' and xact_start is not null
          )) as start`.execute(trx);
      const since = state.rows[0]?.since ?? new Date(0);
      const start = state.rows[0]?.start ?? new Date();

      // Jobs: every job an event, a delivery or a change touched since then, in arrival order
      // (a range's jobs then sit on neighbouring pages: the views' edges). The ids alone first:
      // three index range scans, no row of the jobs read but the touched ones.
      const touched = await sql<{ id: string }>`
        with touched as (
          select job_id as id from outbox_events where created_at >= ${since} and job_id is not null
          union
          select resource_id::uuid from audit_events
          where occurred_at >= ${since} and action in ('job.delivered', 'job.submitted')
            and resource_type = 'job'
          union
          -- A job's updated_at is set on every change, its creation too (migration 025's index):
          -- the one trace of a change that writes no job event (exceptions' cancelTasks).
          select id from jobs where updated_at >= ${since}
        )
        select j.id from jobs j join touched t on t.id = j.id and j.agreement_of is null
        order by j.created_at`.execute(trx);
      // Then recomputed from all their events in batches of BATCH, each a short statement with a
      // pause after it: a run at 100 jobs/s holds some 4,000 jobs, and one statement over all of
      // them held a core and filled the WAL the job path's commits flush for most of a second
      // (bench/README.md, cluster). A job whose figures are what its row holds is not written
      // again (nor counted again): the margin's jobs, and those touched without change.
      let written = 0;
      const durations: DurationChange[] = [];
      const hourly: HourlyChange[] = [];
      const outcomes: OutcomeChange[] = [];
      for (let i = 0; i < touched.rows.length; i += BATCH) {
        if (i > 0) {
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
        const ids = touched.rows.slice(i, i + BATCH).map((row) => row.id);
        const batch = await recomputeJobs(trx, ids);
        written += batch.jobs;
        durations.push(...batch.durations);
        hourly.push(...batch.hourly);
        outcomes.push(...batch.outcomes);
      }

      // Durations per arrival hour and job type as histograms (BUCKET_BASE), and per day; counts
      // per hour (arrivals, answers, ends) and outcomes per arrival day: each row a changed job
      // counts in, its stored counts plus the changes (hour-rollups.ts, counts.ts).
      await applyDurationChanges(trx, durations);
      await applyHourlyChanges(trx, hourly);
      await applyOutcomeChanges(trx, outcomes);

      await refreshPeople(trx, since);

      // Handovers: every conversation with a desk event since then, rebuilt from its audit rows.
      const desk = await sql<{ id: string }>`
        select distinct resource_id as id from audit_events
        where occurred_at >= ${since} and resource_type = 'conversation' and outcome = 'success'
          and action in ('conversation.handover', 'conversation.allocated', 'conversation.reply',
            'conversation.handback', 'conversation.end')`.execute(trx);
      const conversations = desk.rows.map((row) => row.id);
      if (conversations.length > 0) {
        await sql`delete from analytics_handovers where conversation_id = any(${conversations}::text[])`.execute(
          trx,
        );
        await sql`
          with desk as (
            select a.resource_id, a.occurred_at, a.action from audit_events a
            where a.resource_type = 'conversation' and a.outcome = 'success'
              and a.resource_id = any(${conversations}::text[])
              and a.action in ('conversation.handover', 'conversation.allocated',
                'conversation.reply', 'conversation.handback', 'conversation.end')
          ),
          handed as (
            select a.resource_id as cid, a.occurred_at as handed_at, a.details->>'queue' as queue,
              lead(a.occurred_at) over (partition by a.resource_id order by a.occurred_at, a.id) as next_at
            from audit_events a
            where a.resource_type = 'conversation' and a.outcome = 'success'
              and a.action = 'conversation.handover' and a.resource_id = any(${conversations}::text[])
          )
          insert into analytics_handovers (conversation_id, handed_at, tenant, queue, allocated_at,
            first_reply_at, closed_at, closed_how)
          select h.cid, h.handed_at, coalesce(c.tenant, 'unknown'), h.queue, x.allocated_at,
            x.first_reply_at, cl.occurred_at,
            case cl.action when 'conversation.handback' then 'handback' when 'conversation.end' then 'end' end
          from handed h
          left join conversations c on c.id = h.cid
          left join lateral (
            select min(d.occurred_at) filter (where d.action = 'conversation.allocated') as allocated_at,
              min(d.occurred_at) filter (where d.action = 'conversation.reply') as first_reply_at
            from desk d
            where d.resource_id = h.cid and d.occurred_at >= h.handed_at
              and (h.next_at is null or d.occurred_at < h.next_at)
          ) x on true
          left join lateral (
            select d.action, d.occurred_at from desk d
            where d.resource_id = h.cid and d.occurred_at >= h.handed_at
              and (h.next_at is null or d.occurred_at < h.next_at)
              and d.action in ('conversation.handback', 'conversation.end')
            order by d.occurred_at limit 1
          ) cl on true
          on conflict do nothing`.execute(trx);
      }

      // Discarded async tasks: whether a note came with them, never the note itself.
      await sql`
        insert into analytics_discards (audit_id, occurred_at, type, with_note)
        select id, occurred_at,
          coalesce(details->>'pipeline', 'unknown') || '/' || coalesce(details->>'step', 'unknown'),
          length(btrim(coalesce(details->>'note', ''))) > 0
        from audit_events
        where occurred_at >= ${since} and action = 'async-jobs.task.discard' and outcome = 'success'
        on conflict (audit_id) do nothing`.execute(trx);

      // Agreement: every sample answered since then, compared with its job's first answer.
      const samples = await sql<{
        sample_id: string;
        job_id: string;
        queue: string;
        type: string;
        tenant: string;
        first_user: string | null;
        second_user: string | null;
        answered_at: Date;
        first_result: unknown;
        second_result: unknown;
      }>`
        select s.id as sample_id, o.id as job_id, s.queue, s.type, s.tenant,
          o.assignee_id as first_user, s.assignee_id as second_user, s.completed_at as answered_at,
          o.result as first_result, s.result as second_result
        from jobs s join jobs o on o.id = s.agreement_of
        where s.agreement_of is not null and s.state = 'completed' and s.updated_at >= ${since}
          and o.state = 'completed'`.execute(trx);
      const compared = samples.rows.map((row) => {
        const c = compareAnswers(row.first_result, row.second_result);
        return {
          sample_job_id: row.sample_id,
          job_id: row.job_id,
          queue: row.queue,
          type: row.type,
          tenant: row.tenant,
          first_user: row.first_user,
          second_user: row.second_user,
          answered_at: new Date(row.answered_at).toISOString(),
          first_spans: c.firstSpans,
          second_spans: c.secondSpans,
          matched_spans: c.matchedSpans,
          category_pairs: c.categoryPairs,
          outcome_differs: c.outcomeDiffers,
        };
      });
      for (let i = 0; i < compared.length; i += 1000) {
        await sql`
          insert into analytics_agreement (sample_job_id, job_id, queue, type, tenant, first_user,
            second_user, answered_at, first_spans, second_spans, matched_spans, category_pairs,
            outcome_differs)
          select * from jsonb_to_recordset(${JSON.stringify(compared.slice(i, i + 1000))}::jsonb)
            as x(sample_job_id uuid, job_id uuid, queue text, type text, tenant text,
              first_user uuid, second_user uuid, answered_at timestamptz, first_spans integer,
              second_spans integer, matched_spans integer, category_pairs jsonb,
              outcome_differs boolean)
          on conflict (sample_job_id) do nothing`.execute(trx);
      }

      // Agreement per answer day (migration 028): the days of those samples, rebuilt whole.
      const sampleDays = [...new Set(compared.map((row) => dayOf(row.answered_at)))].sort();
      if (sampleDays.length > 0) {
        await sql`delete from analytics_agreement_daily where day = any(${sampleDays}::timestamptz[])`.execute(
          trx,
        );
        await sql`
          insert into analytics_agreement_daily (day, type, lo, hi, samples, matched, spans, labels)
          ${agreementDays(sql`g.answered_at >= ${sampleDays[0]}::timestamptz
            and date_bin('1 day', g.answered_at, ${ORIGIN}) = any(${sampleDays}::timestamptz[])`)}`.execute(
          trx,
        );
      }

      await sql`
        insert into analytics_refresh (id, refreshed_at, covered_until) values (1, clock_timestamp(), ${start})
        on conflict (id) do update set refreshed_at = excluded.refreshed_at,
          covered_until = excluded.covered_until`.execute(trx);
      return { jobs: written };
    });
  }

  /** When the rollups were last brought up to date, or null before the first run. */
  async function refreshedAt(): Promise<Date | null> {
    const result = await sql<{ at: Date }>`
      select refreshed_at as at from analytics_refresh where id = 1`.execute(db);
    return result.rows[0]?.at ?? null;
  }

  return { refresh, refreshedAt };
}

export type Rollups = ReturnType<typeof createRollups>;
