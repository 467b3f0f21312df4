import type { Transaction } from 'kysely';
import type { QueueName } from '@loopdesk/contracts/jobs.ts';
import { type SessionSource, type SessionState } from '@loopdesk/contracts/realtime.ts';
import type { BusMessages } from '../../platform/bus.ts';
import { observeDispatch, observeStep } from '../../platform/metrics.ts';
import type { DB } from '../../platform/db/schema.ts';
import { recordReturnedJobs } from '../jobs/events.ts';
import type { JobRow, JobsRepository, NewJob } from '../jobs/repository.ts';
import { announce, send, type Connection } from './connections.ts';
import { queueSample, sampled } from './agreement.ts';
import {
  createDispatchRepository,
  type ClaimedRow,
  type CreationRecord,
  type EnqueuedRow,
} from './dispatch-repository.ts';
import type { HubContext } from './hub-context.ts';

/** A new job as stored by `hub.enqueue`: handed to a technician (`conn_id`) or queued. */
export type Enqueued = EnqueuedRow;

/** The timestamp columns of a job row: JSON carries them as ISO strings. */
const JOB_TIMES = [
  'queued_at',
  'created_at',
  'updated_at',
  'completed_at',
  'lease_expires_at',
] as const satisfies readonly (keyof JobRow)[];

/** A job row as it travels on the bus (`jobs.handed`), and back. */
const jobToBus = (job: JobRow): Record<string, unknown> => ({ ...job });
function jobFromBus(wire: Record<string, unknown>): JobRow {
  const job = { ...wire };
  for (const column of JOB_TIMES) {
    const value = job[column];
    job[column] = value === null || value === undefined ? null : new Date(value as string | Date);
  }
  return job as unknown as JobRow;
}

/** How many handed jobs a socket remembers, to drop a repeated announcement. */
const RECENT_JOBS = 8;

/**
 * How long after seeing a backlog (or no technician waiting) new jobs skip the direct hand-off
 * and are queued for the claim passes (bench/README.md, dispatch).
 */
const HAND_OFF_RETRY_MS = 100;

/**
 * Dispatch: who gets which job. Claim passes give waiting technicians the oldest jobs of their
 * policy's queues; a new job is handed straight to the longest-waiting technician in its insert
 * (the direct hand-off) and announced after commit; jobs that come back (a socket closed, a lease
 * ran out) return to the head of their queue with their outbox events; the sweep is the safety
 * net of all of it.
 */
export function createDispatch(ctx: HubContext) {
  const { db, bus, jobs, sessions, log, connections, policies } = ctx;
  const dispatchRepo = createDispatchRepository(db);
  // Claims go through the dispatch lane: new work reaches waiting technicians without queueing
  // behind the submissions and API calls on the shared pool.
  const claims = createDispatchRepository(ctx.dispatchDb);

  /** The socket kinds that take a queue's jobs (the inverse of each policy's queues). */
  const sourcesOf = (queue: string): SessionSource[] =>
    policies
      .entries()
      .filter(([, policy]) => (policy.queues as readonly string[]).includes(queue))
      .map(([source]) => source);

  /**
   * Hands jobs back to the head of their queue (or dead-letters them), with their outbox events;
   * sessions still marked as holding them wait again.
   */
  function returnJobs(
    where: Omit<Parameters<JobsRepository['release']>[0], 'maxAttempts'>,
  ): Promise<JobRow[]> {
    return db.transaction().execute(async (trx) => {
      const rows = await jobs.release({ ...where, maxAttempts: ctx.maxAttempts }, trx);
      if (rows.length > 0) {
        await sessions.waitAgain(
          rows.map((row) => row.id),
          trx,
        );
        await recordReturnedJobs(trx, rows);
      }
      return rows;
    });
  }

  /** Returns jobs as `returnJobs` does, then tells every node their queues have work. */
  async function returnAndAnnounce(
    where: Omit<Parameters<JobsRepository['release']>[0], 'maxAttempts'>,
  ): Promise<JobRow[]> {
    const released = await returnJobs(where);
    if (released.length > 0) {
      await bus.publish('jobs.available', { queues: released.map((j) => j.queue) });
    }
    return released;
  }

  /**
   * Hands back a job the database assigned to a socket that can no longer take it — exactly that
   * assignment (technician and attempt): if it was returned and taken again since, nothing moves.
   */
  async function giveBack(userId: string, job: Pick<JobRow, 'id' | 'attempts'>): Promise<void> {
    await returnAndAnnounce({ jobId: job.id, assigneeId: userId, attempts: job.attempts });
  }

  /**
   * Per queue, when a direct hand-off of this node last found no taker (work waits for
   * technicians, not technicians for work). Until a technician of this node waits again, or for
   * a short while, new jobs are inserted plainly and the technicians' answers (each takes the
   * next job) and the claim passes hand them out: the hand-off could find no taker anyway, and
   * its longer statement only slows the producers down.
   */
  const backlogSeenAt = new Map<string, number>();
  const backlogLikely = (queue: string) =>
    performance.now() - (backlogSeenAt.get(queue) ?? -Infinity) < HAND_OFF_RETRY_MS;

  /** A technician of this node waits for work: its queues have no backlog to wait out. */
  function technicianWaits(conn: Connection): void {
    for (const queue of policies.get(conn.source).queues) {
      backlogSeenAt.delete(queue);
    }
  }

  /** A queue was drained with technicians left waiting: hand new jobs off again. */
  function queueDrained(queue: string): void {
    backlogSeenAt.delete(queue);
  }

  /**
   * Word that queues have work (jobs.available: a job queued without a taker, or returned,
   * anywhere), counted: `words` now, and the count at each queue's last word. An answer's
   * completing statement says whether its queues had queued jobs when it ran; a word counted
   * after the statement began may name a job it did not see. With neither, the technician who
   * turns waiting needs no claim pass: every job queued later is announced, and a claim pass
   * follows that word (bench/README.md, cluster).
   */
  const lastWord = new Map<string, number>();
  let words = 0;

  /** Word that these queues have work: count it, and claim. */
  function workAvailable(queues: readonly string[]): Promise<void> {
    for (const queue of queues) {
      lastWord.set(queue, ++words);
    }
    return dispatch();
  }

  /** Whether any of these queues had word of work after the count `since`. */
  const wordSince = (since: number, queues: readonly string[]) =>
    queues.some((queue) => (lastWord.get(queue) ?? 0) > since);

  /** Sets and records the session state, holding this job (or none); the caller announces. */
  async function setState(
    conn: Connection,
    state: SessionState,
    job: JobRow | null,
  ): Promise<void> {
    conn.state = state;
    conn.job = job;
    if (state === 'waiting') {
      conn.waitingSince = Date.now();
      technicianWaits(conn);
    }
    await sessions.setState(conn.id, state, job?.id ?? null);
  }

  /** A socket that can take a job now: waiting, and not closing (its close may be in hand). */
  const canTake = (c: Connection) =>
    c.state === 'waiting' && !c.closed && c.socket.readyState === c.socket.OPEN;

  /** Holds a job the database assigned to this activated socket and sends its frame. */
  function sendJob(conn: Connection, job: JobRow): void {
    const started = performance.now();
    observeDispatch(job.queue, job.queued_at); // metrics: stored → frame sent (issue 11)
    conn.job = job;
    conn.recent = [`${job.id}/${job.attempts}`, ...conn.recent].slice(0, RECENT_JOBS);
    const payload =
      typeof job.payload === 'object' && job.payload !== null
        ? job.payload
        : { value: job.payload };
    send(conn, job.type, { ...payload, jobId: job.id, tenant: job.tenant });
    observeStep('frame.send', started);
  }

  /**
   * Sends a job the database assigned to this socket's session (a claim or a direct hand-off),
   * after the frames the socket has in hand. A socket that paused or closed meanwhile hands it
   * back; a job announced twice (bus and sweep) goes out once.
   */
  function deliver(conn: Connection, job: JobRow): void {
    conn.work = conn.work
      .then(async () => {
        const handed = `${job.id}/${job.attempts}`;
        if (conn.recent.includes(handed)) {
          return;
        }
        if (!canTake(conn)) {
          await giveBack(conn.userId, job);
          return;
        }
        conn.state = 'activated';
        announce(conn);
        sendJob(conn, job);
      })
      .catch((error: unknown) => log.error({ err: error }, 'job delivery failed'));
  }

  /** One pass: the waiting technicians of each queue, oldest first, get its oldest jobs. */
  async function dispatchOnce(): Promise<void> {
    const waiting = [...connections.values()]
      .filter(canTake)
      .sort((a, b) => a.waitingSince - b.waitingSince);
    const byQueue = new Map<QueueName, Connection[]>();
    for (const conn of waiting) {
      for (const queue of policies.get(conn.source).queues) {
        const takers = byQueue.get(queue);
        if (takers) {
          takers.push(conn);
        } else {
          byQueue.set(queue, [conn]);
        }
      }
    }
    for (const [queue, takers] of byQueue) {
      const open = takers.filter(canTake);
      const claimed = await claims.claimFor(
        queue,
        open.map((c) => ({ userId: c.userId, connectionId: c.id, email: c.email, ip: c.ip })),
        ctx.leaseMs,
      );
      if (claimed.length < open.length) {
        // Technicians are left waiting: the queue is drained.
        queueDrained(queue);
      }
      const handed = async (row: ClaimedRow) => {
        const { conn_id: connectionId, taker_email: _email, taker_ip: _ip, ...job } = row;
        const conn = connections.get(connectionId);
        if (conn) {
          deliver(conn, job);
        } else if (job.assignee_id) {
          await giveBack(job.assignee_id, job);
        }
      };
      for (const row of claimed) {
        await handed(row);
      }
      // Agreement samples (issue 16) go to the takers left waiting, never to their first
      // technician: one statement per sample, until none is left or nobody can take one.
      if (ctx.agreement && ctx.agreement.share > 0) {
        const served = new Set(claimed.map((row) => row.conn_id));
        let left = open.filter((c) => !served.has(c.id));
        while (left.length > 0) {
          const sample = await claims.claimSample(
            queue,
            left.map((c) => ({ userId: c.userId, connectionId: c.id, email: c.email, ip: c.ip })),
            ctx.leaseMs,
          );
          if (!sample) {
            break;
          }
          left = left.filter((c) => c.id !== sample.conn_id);
          await handed(sample);
        }
      }
    }
  }

  /** Queues the unseen second delivery of a sampled federated job just answered (issue 16). */
  async function sample(job: JobRow, firstUserId: string): Promise<void> {
    if (!sampled(job, ctx.agreement) || !ctx.agreement) {
      return;
    }
    try {
      await queueSample(db, job, firstUserId, ctx.agreement);
      await bus.publish('jobs.available', { queues: [job.queue] });
    } catch (error) {
      // The first answer stands: a sample lost to a failure only costs one agreement figure.
      log.warn({ err: error, jobId: job.id }, 'the agreement sample could not be queued');
    }
  }

  let dispatchRunning: Promise<void> | null = null;
  let dispatchAgain = false;

  /**
   * Gives waiting technicians of this node the oldest jobs of their queues. Calls that arrive
   * while a pass runs are folded into one more pass, so a burst of new jobs costs a few passes.
   */
  function dispatch(): Promise<void> {
    if (dispatchRunning) {
      dispatchAgain = true;
      return dispatchRunning;
    }
    dispatchRunning = (async () => {
      do {
        dispatchAgain = false;
        try {
          const started = performance.now();
          await dispatchOnce();
          observeStep('dispatch.pass', started);
        } catch (error) {
          log.error({ err: error }, 'dispatch failed');
        }
      } while (dispatchAgain);
      dispatchRunning = null;
    })();
    return dispatchRunning;
  }

  /**
   * Stores a new job, in the caller's transaction when given. When a technician of its queue
   * waits (on any node) and no queued job comes before it, the same statement hands it to the
   * longest-waiting one; call `announce` once the transaction has committed. With `record`, the
   * statement also writes the creation's audit entry and outbox event (no transaction needed).
   */
  async function enqueue(
    job: NewJob,
    trx?: Transaction<DB>,
    record?: CreationRecord,
  ): Promise<Enqueued> {
    const sources = sourcesOf(job.queue);
    // Concurrent enqueues are handed off each in its own statement, so a job's latency is its
    // insert alone (bench/README.md, dispatch); while work waits for technicians they are
    // inserted plainly, and the answers and the claim passes take them.
    const handOff = sources.length > 0 && !backlogLikely(job.queue);
    if (!handOff && !record) {
      return { ...(await jobs.enqueue(job, trx)), conn_id: null, taker_node: null };
    }
    const enqueued = await dispatchRepo.enqueue(
      job,
      {
        sources: handOff ? sources : [],
        leaseMs: ctx.leaseMs,
        staleBefore: new Date(Date.now() - ctx.staleMs),
        ...(record ? { record } : {}),
      },
      trx,
    );
    if (!handOff) {
      return enqueued;
    }
    if (enqueued.conn_id) {
      backlogSeenAt.delete(job.queue);
    } else {
      backlogSeenAt.set(job.queue, performance.now());
    }
    return enqueued;
  }

  /**
   * After the enqueue committed: the frame to the technician it was handed to (here at once, on
   * another node through the bus), or word to every node that the queue has work.
   */
  async function announceEnqueued(enqueued: Enqueued): Promise<void> {
    const { conn_id: connectionId, taker_node: nodeId, ...job } = enqueued;
    if (!connectionId || !nodeId || !job.assignee_id) {
      await bus.publish('jobs.available', { queues: [job.queue] });
      return;
    }
    if (nodeId === ctx.nodeId) {
      const conn = connections.get(connectionId);
      if (conn) {
        deliver(conn, job);
      } else {
        await giveBack(job.assignee_id, job);
      }
      return;
    }
    await bus.publish('jobs.handed', {
      nodeId,
      connectionId,
      jobId: job.id,
      userId: job.assignee_id,
      attempts: job.attempts,
      job: jobToBus(job),
    });
  }

  /**
   * A hand-off another node committed for a socket of this node: the message carries the job as
   * committed. Sent only while the socket still waits (deliver); a socket that is gone hands back
   * exactly this assignment (technician and attempt), so a job returned or taken again since never
   * moves. A job cancelled meanwhile is withdrawn after its frame (jobs.withdrawn, published after
   * this message) and a submission for it changes nothing.
   */
  async function handedHere(message: BusMessages['jobs.handed']): Promise<void> {
    const started = performance.now();
    const conn = connections.get(message.connectionId);
    const job = jobFromBus(message.job);
    if (
      job.id !== message.jobId ||
      job.state !== 'assigned' ||
      job.assignee_id !== message.userId ||
      job.attempts !== message.attempts
    ) {
      return;
    }
    if (conn) {
      deliver(conn, job);
    } else {
      await giveBack(message.userId, job);
    }
    observeStep('hand-off.receive', started);
  }

  /**
   * The lease sweep: jobs whose lease ran out go back (their holders are told), and — the safety
   * net of event-driven dispatch — a job whose announcement was lost (Redis down for a moment, a
   * node that died between its commit and its publish) still reaches a waiting technician within
   * one sweep, a job handed to one of this node's sockets whose frame never came as well.
   */
  async function sweep(): Promise<void> {
    const released = await returnJobs({ expiredBefore: new Date() });
    if (released.length > 0) {
      await bus.publish('jobs.withdrawn', { jobIds: released.map((j) => j.id) });
      await bus.publish('jobs.available', { queues: released.map((j) => j.queue) });
    }
    const idle = [...connections.values()].filter(
      (c) => canTake(c) && !c.job && policies.get(c.source).queues.length > 0,
    );
    const stranded = await dispatchRepo.heldBy(
      ctx.nodeId,
      idle.map((c) => c.id),
      new Date(Date.now() - ctx.sweepMs),
    );
    for (const { conn_id: connectionId, ...job } of stranded) {
      const conn = connections.get(connectionId);
      if (conn) {
        deliver(conn, job);
      }
    }
    if ([...connections.values()].some((c) => c.state === 'waiting' && !c.closed)) {
      await dispatch();
    }
  }

  return {
    dispatch,
    enqueue,
    announceEnqueued,
    handedHere,
    sweep,
    returnAndAnnounce,
    giveBack,
    setState,
    technicianWaits,
    canTake,
    sendJob,
    sample,
    workAvailable,
    wordSince,
    /** The count of words of work so far (wordSince's `since`). */
    words: (): number => words,
    /** The claim pass in progress, if any (a stopping hub waits for it). */
    running: (): Promise<void> | null => dispatchRunning,
    /** The completing statement of a submission (submission.ts). */
    complete: (input: Parameters<typeof dispatchRepo.complete>[0]) => dispatchRepo.complete(input),
  };
}

export type Dispatch = ReturnType<typeof createDispatch>;
