import { sql, type Transaction } from 'kysely';
import { PREPARED, type Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { QueueName } from '@loopdesk/contracts/jobs.ts';
import type { JobRow, NewJob } from '../jobs/repository.ts';

/** A waiting technician's socket, in the order it should be served. */
export interface Taker {
  readonly userId: string;
  readonly connectionId: string;
  /** The technician's email and address, for the audit trail. */
  readonly email: string;
  readonly ip: string | null;
}

/** A claimed job with the socket it goes to. */
export type ClaimedRow = JobRow & { conn_id: string; taker_email: string; taker_ip: string | null };

/** A new job, and the socket (on which node) it was handed to; null when it waits in its queue. */
export type EnqueuedRow = JobRow & { conn_id: string | null; taker_node: string | null };

/**
 * What the creation of a job records with it, in its own statement: the audit entry (its
 * resource is the new job) and the `job.created` outbox event (the job as the assistant reads it,
 * toJobView's shape) with its webhook delivery.
 */
export interface CreationRecord {
  readonly audit: {
    readonly action: string;
    readonly statusCode: number;
    readonly details: Record<string, unknown>;
    readonly ip: string | null;
    readonly userAgent: string | null;
    readonly requestId: string | null;
  };
}

/**
 * The job as the assistant reads it (events.ts toJobView), built in SQL from a jobs row `j`:
 * timestamps as JavaScript's toISOString writes them (UTC, milliseconds, truncated as a Date is).
 */
const jobView = (j: string) =>
  sql.raw(`jsonb_build_object(
    'id', ${j}.id, 'queue', ${j}.queue, 'type', ${j}.type, 'tenant', ${j}.tenant,
    'state', ${j}.state, 'attempts', ${j}.attempts, 'priority', ${j}.priority,
    'data', ${j}.payload,
    'createdAt', to_char(${j}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'completedAt', to_char(${j}.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'result', ${j}.result)`);

/**
 * The hot path of dispatch: one statement each, so that a busy node spends one round trip per
 * batch of claims and one per submission.
 */
export function createDispatchRepository(db: Database) {
  return {
    /**
     * Stores a new job and, when a technician of one of `sources` is waiting (with a live socket
     * anywhere in the cluster) and no queued job of the queue comes before the new one (an older
     * job of higher or equal priority), assigns it to the longest-waiting one, marks the session
     * activated and audits the delivery — one statement, inside the caller's transaction when
     * given. The session row is locked (SKIP LOCKED), so a concurrent claim or hand-off never gives
     * the same technician a second job. The frame goes out after commit (hub.announce). With no
     * `sources` the job is only queued. With `record`, the same statement writes the creation's
     * audit entry and its `job.created` outbox event: a job created this way needs no transaction.
     */
    async enqueue(
      job: NewJob,
      options: {
        sources: readonly string[];
        leaseMs: number;
        staleBefore: Date;
        record?: CreationRecord;
      },
      trx: Database | Transaction<DB> = db,
    ): Promise<EnqueuedRow> {
      const priority = job.priority ?? 0;
      const audit = options.record?.audit;
      const result = await sql<EnqueuedRow>`${sql.raw(PREPARED)}
        with taker as (
          select s.user_id, s.connection_id, s.node_id, s.ip, u.email
          from technician_sessions s join users u on u.id = s.user_id
          where s.source = any(${[...options.sources]}::text[]) and s.state = 'waiting'
            and s.connection_id is not null and s.last_seen_at >= ${options.staleBefore}
            and not exists (
              select 1 from jobs q
              where q.queue = ${job.queue} and q.state = 'queued' and q.priority >= ${priority}
                and q.agreement_of is null
            )
          order by s.waiting_since asc nulls last, s.user_id
          limit 1
          for update of s skip locked
        ),
        inserted as (
          insert into jobs (queue, type, tenant, payload, priority, max_attempts, idempotency_key,
            state, assignee_id, attempts, lease_expires_at)
          select ${job.queue}, ${job.type}, ${job.tenant}, ${JSON.stringify(job.payload)}::jsonb,
            ${priority}, ${job.maxAttempts ?? null}::int, ${job.idempotencyKey ?? null},
            case when t.user_id is null then 'queued' else 'assigned' end,
            t.user_id,
            case when t.user_id is null then 0 else 1 end,
            case when t.user_id is null then null
              else now() + make_interval(secs => ${options.leaseMs / 1000}) end
          from (values (1)) as one (x) left join taker t on true
          returning *
        ),
        activated as (
          update technician_sessions s set
            state = 'activated', current_job_id = i.id, waiting_since = null, updated_at = now()
          from inserted i, taker t
          where s.connection_id = t.connection_id
          returning 1
        ),
        -- A job carries patient messages: handing it to a technician is a read of patient data.
        audited as (
          insert into audit_events (actor_id, actor_email, action, resource_type, resource_id, outcome, ip, details)
          select t.user_id, t.email, 'job.delivered', 'job', i.id::text, 'success', t.ip,
            jsonb_build_object('queue', i.queue, 'type', i.type, 'tenant', i.tenant, 'attempt', i.attempts)
          from inserted i, taker t
          returning 1
        )${
          audit
            ? sql`,
        created as (
          insert into audit_events (action, outcome, resource_type, resource_id, status_code, ip,
            user_agent, request_id, details)
          select ${audit.action}, 'success', 'job', i.id::text, ${audit.statusCode}::int,
            ${audit.ip}::text, ${audit.userAgent}::text, ${audit.requestId}::text,
            ${JSON.stringify(audit.details)}::jsonb
          from inserted i
          returning 1
        ),
        event as (
          insert into outbox_events (type, job_id, data)
          select 'job.created', i.id, jsonb_build_object('job', ${jobView('i')}) from inserted i
          returning id
        ),
        delivery as (
          insert into webhook_deliveries (event_id, next_attempt_at)
          select id, now() from event
          returning 1
        )`
            : sql``
        }
        select i.*, t.connection_id as conn_id, t.node_id as taker_node
        from inserted i left join taker t on true`.execute(trx);
      const row = result.rows[0];
      if (!row) {
        throw new Error('the job insert returned no row');
      }
      return row;
    },

    /**
     * Assigns the oldest queued jobs (by priority, then age) to the takers in their order, and
     * marks their sessions activated — one statement. SKIP LOCKED keeps concurrent nodes apart;
     * a taker whose session is no longer waiting in the database (a direct hand-off took it) or
     * is locked by one is passed over.
     */
    async claimFor(
      queue: QueueName,
      takers: readonly Taker[],
      leaseMs: number,
    ): Promise<ClaimedRow[]> {
      if (takers.length === 0) {
        return [];
      }
      const result = await sql<ClaimedRow>`${sql.raw(PREPARED)}
        with locked as (
          select id, priority, queued_at, seq from jobs
          -- Agreement samples are claimed apart (claimSample): never by their first technician.
          where queue = ${queue} and state = 'queued' and agreement_of is null
          order by priority desc, queued_at asc, seq asc
          for update skip locked
          limit ${takers.length}
        ),
        picked as (
          select id, row_number() over (order by priority desc, queued_at asc, seq asc) as rn from locked
        ),
        takers as (
          select * from unnest(
            ${takers.map((t) => t.userId)}::uuid[],
            ${takers.map((t) => t.connectionId)}::text[],
            ${takers.map((t) => t.email)}::text[],
            ${takers.map((t) => t.ip)}::text[]
          ) with ordinality as t(user_id, conn_id, email, ip, rn)
        ),
        -- Only as many sessions as there are jobs are locked: the others stay free for hand-offs.
        free as (
          select s.connection_id, t.rn from technician_sessions s join takers t on t.conn_id = s.connection_id
          where s.state = 'waiting'
          order by t.rn
          limit (select count(*) from locked)
          for update of s skip locked
        ),
        ready as (
          select t.*, row_number() over (order by t.rn) as pos
          from takers t join free f on f.connection_id = t.conn_id
        ),
        claimed as (
          update jobs j set
            state = 'assigned',
            assignee_id = t.user_id,
            attempts = j.attempts + 1,
            lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
            updated_at = now()
          from picked p join ready t on t.pos = p.rn
          where j.id = p.id
          returning j.*, t.conn_id, t.email as taker_email, t.ip as taker_ip
        ),
        -- A job carries patient messages: handing it to a technician is a read of patient data.
        audited as (
          insert into audit_events (actor_id, actor_email, action, resource_type, resource_id, outcome, ip, details)
          select c.assignee_id, c.taker_email, 'job.delivered', 'job', c.id::text, 'success', c.taker_ip,
            jsonb_build_object('queue', c.queue, 'type', c.type, 'tenant', c.tenant, 'attempt', c.attempts)
          from claimed c
          returning 1
        ),
        activated as (
          update technician_sessions s set
            state = 'activated', current_job_id = c.id, waiting_since = null, updated_at = now()
          from claimed c
          where s.connection_id = c.conn_id
          returning 1
        )
        select * from claimed`.execute(db);
      return result.rows;
    },

    /**
     * Gives one queued agreement sample of the queue (the oldest) to the first of the takers who
     * is not its first technician and whose session still waits, as claimFor does (job assigned,
     * delivery audited, session activated) — one statement; undefined when none can be given.
     * Samples come after every other job: the dispatch pass offers them to the takers it left
     * waiting.
     */
    async claimSample(
      queue: QueueName,
      takers: readonly Taker[],
      leaseMs: number,
    ): Promise<ClaimedRow | undefined> {
      if (takers.length === 0) {
        return undefined;
      }
      const result = await sql<ClaimedRow>`
        with takers as (
          select * from unnest(
            ${takers.map((t) => t.userId)}::uuid[],
            ${takers.map((t) => t.connectionId)}::text[],
            ${takers.map((t) => t.email)}::text[],
            ${takers.map((t) => t.ip)}::text[]
          ) with ordinality as t(user_id, conn_id, email, ip, rn)
        ),
        sample as (
          select j.id, j.agreement_exclude from jobs j
          where j.queue = ${queue} and j.state = 'queued' and j.agreement_of is not null
            and exists (select 1 from takers t where t.user_id is distinct from j.agreement_exclude)
          order by j.queued_at asc, j.seq asc
          limit 1
          for update of j skip locked
        ),
        free as (
          select s.connection_id, t.user_id, t.email, t.ip from technician_sessions s
          join takers t on t.conn_id = s.connection_id
          join sample x on t.user_id is distinct from x.agreement_exclude
          where s.state = 'waiting'
          order by t.rn
          limit 1
          for update of s skip locked
        ),
        claimed as (
          update jobs j set
            state = 'assigned', assignee_id = f.user_id, attempts = j.attempts + 1,
            lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
            updated_at = now()
          from sample x, free f
          where j.id = x.id
          returning j.*, f.connection_id as conn_id, f.email as taker_email, f.ip as taker_ip
        ),
        audited as (
          insert into audit_events (actor_id, actor_email, action, resource_type, resource_id, outcome, ip, details)
          select c.assignee_id, c.taker_email, 'job.delivered', 'job', c.id::text, 'success', c.taker_ip,
            jsonb_build_object('queue', c.queue, 'type', c.type, 'tenant', c.tenant, 'attempt', c.attempts)
          from claimed c
          returning 1
        ),
        activated as (
          update technician_sessions s set
            state = 'activated', current_job_id = c.id, waiting_since = null, updated_at = now()
          from claimed c
          where s.connection_id = c.conn_id
          returning 1
        )
        select * from claimed`.execute(db);
      return result.rows[0];
    },

    /**
     * Jobs the database gave these sockets of a node (by claim or hand-off) before `assignedBefore`
     * and still assigned to them: the sweep's safety net for a hand-off announcement that was
     * lost on its way to the node (Redis down for a moment).
     */
    async heldBy(
      nodeId: string,
      connectionIds: readonly string[],
      assignedBefore: Date,
    ): Promise<(JobRow & { conn_id: string })[]> {
      if (connectionIds.length === 0) {
        return [];
      }
      const result = await sql<JobRow & { conn_id: string }>`
        select j.*, s.connection_id as conn_id
        from technician_sessions s
        join jobs j on j.id = s.current_job_id
        where s.node_id = ${nodeId} and s.state = 'activated'
          and s.connection_id = any(${[...connectionIds]}::text[])
          and j.state = 'assigned' and j.assignee_id = s.user_id and j.updated_at < ${assignedBefore}`.execute(
        db,
      );
      return result.rows;
    },

    /**
     * Completes the job its assignee holds and, when given, records the outbox event and its
     * webhook delivery — one statement, so one round trip and atomic. With `next`, the same
     * statement hands the technician the oldest queued job of `next.queues`: the session stays
     * activated with the new job, which is audited as delivered. Without a next job the
     * session waits. Undefined when the job is not theirs any more (duplicate or stale submission).
     * `queued` says whether jobs of `queues` (the technician's) were queued as the statement ran.
     */
    async complete(input: {
      jobId: string;
      userId: string;
      email: string;
      ip: string | null;
      connectionId: string;
      result: unknown;
      completedAt: Date;
      event?: { type: string; data: unknown };
      next?: { leaseMs: number };
      queues: readonly string[];
    }): Promise<{ next: JobRow | null; queued: boolean } | undefined> {
      const event = input.event;
      const next = input.next;
      // One row: whether the job was completed, and the next job's columns (null without one).
      const result = await sql<
        Partial<JobRow> & { completed: boolean; queued_before: boolean }
      >`${sql.raw(PREPARED)}
        with done as (
          update jobs set
            state = 'completed', result = ${JSON.stringify(input.result)}::jsonb,
            completed_at = ${input.completedAt}, updated_at = now(), lease_expires_at = null
          where id = ${input.jobId} and state = 'assigned' and assignee_id = ${input.userId}
          returning *
        ),${
          next
            ? sql`
        candidate as (
          select j.id from jobs j
          where j.queue = any(${[...input.queues]}::text[]) and j.state = 'queued'
            and j.agreement_of is null and exists (select 1 from done)
          order by j.priority desc, j.queued_at asc, j.seq asc
          limit 1
          for update of j skip locked
        ),
        claimed as (
          update jobs j set
            state = 'assigned', assignee_id = ${input.userId}, attempts = j.attempts + 1,
            lease_expires_at = now() + make_interval(secs => ${next.leaseMs / 1000}),
            updated_at = now()
          from candidate c
          where j.id = c.id
          returning j.*
        ),
        delivered as (
          insert into audit_events (actor_id, actor_email, action, resource_type, resource_id, outcome, ip, details)
          select ${input.userId}::uuid, ${input.email}, 'job.delivered', 'job', id::text, 'success', ${input.ip},
            jsonb_build_object('queue', queue, 'type', type, 'tenant', tenant, 'attempt', attempts)
          from claimed
          returning 1
        ),`
            : sql`
        claimed as (select * from jobs where false),`
        }
        -- The answer came through the socket: it is alive (the heartbeat leaves it alone).
        session as (
          update technician_sessions set
            state = case when exists (select 1 from claimed) then 'activated' else 'waiting' end,
            current_job_id = (select id from claimed),
            waiting_since = case when exists (select 1 from claimed) then null else now() end,
            updated_at = now(), last_seen_at = now()
          where connection_id = ${input.connectionId} and exists (select 1 from done)
          returning 1
        ),
        -- The technician's result changes patient data: it is audited in the same statement.
        audited as (
          insert into audit_events (actor_id, actor_email, action, resource_type, resource_id, outcome, ip, details)
          select ${input.userId}::uuid, ${input.email}, 'job.submitted', 'job', id::text, 'success', ${input.ip},
            jsonb_build_object('queue', queue, 'type', type, 'tenant', tenant)
          from done
          returning 1
        )${
          event
            ? sql`,
        event as (
          insert into outbox_events (type, job_id, data)
          select ${event.type}, id, ${JSON.stringify(event.data)}::jsonb from done
          returning id
        ),
        delivery as (
          insert into webhook_deliveries (event_id, next_attempt_at)
          select id, now() from event
          returning 1
        )`
            : sql``
        }
        select exists (select 1 from done) as completed,
          exists (
            select 1 from jobs q where q.queue = any(${[...input.queues]}::text[]) and q.state = 'queued'
          ) as queued_before,
          c.*
        from (values (1)) as one (x) left join claimed c on true`.execute(db);
      const row = result.rows[0];
      if (!row?.completed) {
        return undefined;
      }
      const { completed: _completed, queued_before: queued, ...claimed } = row;
      return { next: claimed.id ? (claimed as JobRow) : null, queued };
    },
  };
}

export type DispatchRepository = ReturnType<typeof createDispatchRepository>;
