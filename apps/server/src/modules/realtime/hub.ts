import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Transaction } from 'kysely';
import type { WebSocket } from 'ws';
import {
  ADMIN_CLOSE_CODE,
  ADMIN_CLOSE_MESSAGE,
  CloudEvent,
  MAX_FRAME_BYTES,
  PORTAL_SOURCE,
  QUINN_DATASCHEMA,
  RPA_DATASCHEMA,
  SESSION_EVENT_TYPES,
  SUBMISSION_TYPES,
  SubmissionData,
  type SessionSource,
  type SessionState,
  type SubmissionType,
} from '@loopdesk/contracts/realtime.ts';
import { SUBMISSION_PAYLOADS } from '@loopdesk/contracts/realtime-events.ts';
import type { QueueName } from '@loopdesk/contracts/jobs.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { Bus, BusMessages } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import type { JobRow, JobsRepository, NewJob } from '../jobs/repository.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import { createDispatchRepository, type EnqueuedRow } from './dispatch-repository.ts';
import { observeDispatch } from '../../platform/metrics.ts';

/** The queues each socket serves. */
export const SOURCE_QUEUES: Readonly<Record<SessionSource, readonly QueueName[]>> = {
  federated: ['federated'],
  // The exception desk hands its sockets conversations, and each conversation's tasks go to the
  // reviewer who holds it (modules/exceptions), never to whoever waits longest.
  exceptions: [],
  priority: ['priority'],
};

/** Portal events accepted on each socket besides state requests and 'pong'. */
const SOCKET_EVENT_TYPES: Readonly<Record<SessionSource, readonly string[]>> = {
  federated: SUBMISSION_TYPES,
  priority: SUBMISSION_TYPES,
  exceptions: [
    ...SUBMISSION_TYPES,
    'technician.session.conversation.switch',
    'technician.session.conversation.handback',
    'technician.session.conversation.end',
    'message.manual.response',
  ],
};

/** Zod issues as `path message; …` for error events; a union reports its closest branch. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], prefix = 'data'): string {
  return issues
    .map((issue) => {
      if (issue.code === 'invalid_union' && issue.errors.length > 0) {
        const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
        return describeIssues(
          closest.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })),
          prefix,
        );
      }
      return `${[prefix, ...issue.path.map(String)].join('.')} ${issue.message}`;
    })
    .join('; ');
}

/** How long a new socket waits for the slot of a socket that is closing (a reload). */
const ATTACH_GRACE_MS = 2000;
const ATTACH_RETRY_MS = 100;

export const STALE_SUBMISSION_MESSAGE =
  'This submission is for a job you do not hold (already submitted, cancelled or returned to the queue): it changed nothing.';

/**
 * The outbox event a completed job produces (issue 3 item 6): built from the job as completed,
 * written in the same statement as the completion.
 */
export type CompletionEvent = (
  job: JobRow,
  submission: { type: SubmissionType; userId: string },
) => { type: string; data: unknown };

/** A technician's socket on this node. */
export interface Connection {
  readonly id: string;
  readonly userId: string;
  readonly email: string;
  readonly roles: readonly Role[];
  readonly source: SessionSource;
  readonly socket: WebSocket;
  /** Where the technician connects from, for the audit trail. */
  readonly ip: string | null;
  state: SessionState;
  waitingSince: number;
  job: JobRow | null;
  /** The last jobs handed to this socket (`id/attempt`): a repeated announcement is dropped. */
  recent: string[];
  lastFrameAt: number;
  /** Frames of one socket are handled one after another. */
  work: Promise<void>;
  closed: boolean;
}

/** A new job as stored by `hub.enqueue`: handed to a technician (`conn_id`) or queued. */
export type Enqueued = EnqueuedRow;

/** How many handed jobs a socket remembers, to drop a repeated announcement. */
const RECENT_JOBS = 8;

/** Records jobs handed back to their queue (or dead-lettered) for the outbox, in the same transaction. */
export type ReturnedHook = (trx: Transaction<DB>, jobs: readonly JobRow[]) => Promise<void>;

/** What the hub lends the exception desk to talk to its sockets (issue 5). */
export interface ExceptionsPort {
  send(conn: Connection, type: string, data: unknown): void;
  error(conn: Connection, message: string, event?: { id?: string; type?: string }): void;
  /** Sets, records and announces the session state, holding this task (or none). */
  setState(conn: Connection, state: SessionState, job: JobRow | null): Promise<void>;
  /** This node's open exceptions sockets of a technician. */
  connectionsOf(userId: string): Connection[];
  /** Runs work after the frames the socket has in hand, one at a time. */
  serialize(conn: Connection, work: () => Promise<void>): void;
}

/** The exception desk's part of an exceptions socket's life (modules/exceptions/desk.ts). */
export interface ExceptionsHooks {
  /** The reviewer pressed Resume: conversations may come. */
  activated(conn: Connection): Promise<void>;
  /** The reviewer paused or the socket closed: their conversations go to other reviewers. */
  left(conn: Connection): Promise<void>;
  /** switch, handback, end and manual response. */
  event(conn: Connection, event: CloudEvent): Promise<void>;
  /** A task was submitted (or found stale), or taken away: show the next one. */
  afterTask(conn: Connection): Promise<void>;
  start(): void;
  stop(): void;
}

export interface HubOptions {
  db: Database;
  bus: Bus;
  jobs: JobsRepository;
  sessions: SessionsRepository;
  log: FastifyBaseLogger;
  nodeId: string;
  leaseMs: number;
  /** The dispatch lane for claims (DatabaseHandle.dispatchDb); `db` when absent. */
  dispatchDb?: Database;
  /** Attempts before a job without its own limit is dead-lettered (JOB_MAX_ATTEMPTS). */
  maxAttempts?: number;
  heartbeatMs: number;
  /** A session not seen for this long has no live socket (default three heartbeats). */
  staleMs?: number;
  sweepMs: number;
  completionEvent?: CompletionEvent;
  onReturned?: ReturnedHook;
  /** The exception desk, given the hub's port to the sockets. */
  exceptions?: (port: ExceptionsPort) => ExceptionsHooks;
  /**
   * Refuses a submission that breaks the rules of the job it answers (the workbench's, issue 4):
   * the message goes back as an `error` event and the technician keeps the job.
   */
  checkSubmission?: (
    job: JobRow,
    type: SubmissionType,
    data: SubmissionData,
  ) => Promise<string | null> | string | null;
}

/**
 * How long after seeing a backlog (or no technician waiting) new jobs skip the direct hand-off
 * and are queued for the claim passes (bench/README.md, dispatch).
 */
const HAND_OFF_RETRY_MS = 100;

/** Technician sockets of this node: session states, dispatch, submissions, heartbeats. */
export function createRealtimeHub(options: HubOptions) {
  const { db, bus, jobs, sessions, log } = options;
  const dispatchRepo = createDispatchRepository(db);
  // Claims go through the dispatch lane: new work reaches waiting technicians without queueing
  // behind the submissions and API calls on the shared pool.
  const claims = createDispatchRepository(options.dispatchDb ?? db);

  const staleMs = options.staleMs ?? 3 * options.heartbeatMs;
  /** The socket sources that take each queue's jobs (the inverse of SOURCE_QUEUES). */
  const sourcesOf = (queue: string): SessionSource[] =>
    (Object.keys(SOURCE_QUEUES) as SessionSource[]).filter((source) =>
      (SOURCE_QUEUES[source] as readonly string[]).includes(queue),
    );

  /**
   * Hands jobs back to the head of their queue (or dead-letters them), with their outbox events;
   * sessions still marked as holding them wait again.
   */
  function returnJobs(
    where: Omit<Parameters<JobsRepository['release']>[0], 'maxAttempts'>,
  ): Promise<JobRow[]> {
    return db.transaction().execute(async (trx) => {
      const rows = await jobs.release({ ...where, maxAttempts: options.maxAttempts }, trx);
      if (rows.length > 0) {
        await sessions.waitAgain(
          rows.map((row) => row.id),
          trx,
        );
        await options.onReturned?.(trx, rows);
      }
      return rows;
    });
  }

  /**
   * Hands back a job the database assigned to a socket that can no longer take it — exactly that
   * assignment (technician and attempt): if it was returned and taken again since, nothing moves.
   */
  async function giveBack(userId: string, job: Pick<JobRow, 'id' | 'attempts'>): Promise<void> {
    const released = await returnJobs({
      jobId: job.id,
      assigneeId: userId,
      attempts: job.attempts,
    });
    if (released.length > 0) {
      await bus.publish('jobs.available', { queues: released.map((j) => j.queue) });
    }
  }
  const connections = new Map<string, Connection>();
  const timers: NodeJS.Timeout[] = [];
  const unsubscribe: (() => void)[] = [];

  function send(
    conn: Connection,
    type: string,
    data: unknown,
    dataschema = QUINN_DATASCHEMA,
  ): void {
    if (conn.closed || conn.socket.readyState !== conn.socket.OPEN) {
      return;
    }
    const event: CloudEvent = {
      specversion: '1.0',
      id: randomUUID(),
      type,
      source: PORTAL_SOURCE,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      dataschema,
      data,
    };
    conn.socket.send(JSON.stringify(event));
  }

  function sendError(
    conn: Connection,
    message: string,
    event?: { id?: string; type?: string },
  ): void {
    send(conn, 'error', {
      message,
      ...(event?.id ? { eventId: event.id } : {}),
      ...(event?.type ? { eventType: event.type } : {}),
    });
  }

  function announce(conn: Connection): void {
    send(conn, SESSION_EVENT_TYPES[conn.state], { state: conn.state, source: conn.source });
  }

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

  const exceptions = options.exceptions?.({
    send: (conn, type, data) => send(conn, type, data),
    error: (conn, message, event) => sendError(conn, message, event),
    setState: async (conn, state, job) => {
      await setState(conn, state, job);
      announce(conn);
    },
    connectionsOf: (userId) =>
      [...connections.values()].filter(
        (c) => c.userId === userId && c.source === 'exceptions' && !c.closed,
      ),
    serialize: (conn, work) => {
      conn.work = conn.work
        .then(() => (conn.closed ? undefined : work()))
        .catch((error: unknown) => log.error({ err: error }, 'exception desk work failed'));
    },
  });

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
    for (const queue of SOURCE_QUEUES[conn.source]) {
      backlogSeenAt.delete(queue);
    }
  }

  let dispatchRunning: Promise<void> | null = null;
  let dispatchAgain = false;

  /** A socket that can take a job now: waiting, and not closing (its close may be in hand). */
  const canTake = (c: Connection) =>
    c.state === 'waiting' && !c.closed && c.socket.readyState === c.socket.OPEN;

  /** Holds a job the database assigned to this activated socket and sends its frame. */
  function sendJob(conn: Connection, job: JobRow): void {
    observeDispatch(job.queue, job.queued_at); // metrics: stored → frame sent (issue 11)
    conn.job = job;
    conn.recent = [`${job.id}/${job.attempts}`, ...conn.recent].slice(0, RECENT_JOBS);
    const payload =
      typeof job.payload === 'object' && job.payload !== null
        ? job.payload
        : { value: job.payload };
    send(
      conn,
      job.type,
      { ...payload, jobId: job.id, tenant: job.tenant },
      job.type.startsWith('robot-process-automation') ? RPA_DATASCHEMA : QUINN_DATASCHEMA,
    );
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
      for (const queue of SOURCE_QUEUES[conn.source]) {
        byQueue.set(queue, [...(byQueue.get(queue) ?? []), conn]);
      }
    }
    for (const [queue, takers] of byQueue) {
      const open = takers.filter(canTake);
      const claimed = await claims.claimFor(
        queue,
        open.map((c) => ({ userId: c.userId, connectionId: c.id, email: c.email, ip: c.ip })),
        options.leaseMs,
      );
      if (claimed.length < open.length) {
        // Technicians are left waiting: the queue is drained.
        backlogSeenAt.delete(queue);
      }
      for (const row of claimed) {
        const { conn_id: connectionId, taker_email: _email, taker_ip: _ip, ...job } = row;
        const conn = connections.get(connectionId);
        if (conn) {
          deliver(conn, job);
        } else if (job.assignee_id) {
          await giveBack(job.assignee_id, job);
        }
      }
    }
  }

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
          await dispatchOnce();
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
   * longest-waiting one; call `announce` once the transaction has committed.
   */
  async function enqueue(job: NewJob, trx?: Transaction<DB>): Promise<Enqueued> {
    const sources = sourcesOf(job.queue);
    // Concurrent enqueues are handed off each in its own statement, so a job's latency is its
    // insert alone (bench/README.md, dispatch); while work waits for technicians they are
    // inserted plainly, and the answers and the claim passes take them.
    if (sources.length === 0 || backlogLikely(job.queue)) {
      return { ...(await jobs.enqueue(job, trx)), conn_id: null, taker_node: null };
    }
    const enqueued = await dispatchRepo.enqueue(
      job,
      { sources, leaseMs: options.leaseMs, staleBefore: new Date(Date.now() - staleMs) },
      trx,
    );
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
    if (nodeId === options.nodeId) {
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
    });
  }

  /** A hand-off another node committed for a socket of this node. */
  async function handedHere(message: BusMessages['jobs.handed']): Promise<void> {
    const conn = connections.get(message.connectionId);
    const job = await jobs.findById(message.jobId);
    if (
      !job ||
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
  }

  async function releaseHeld(conn: Connection): Promise<void> {
    if (conn.source === 'exceptions' && exceptions) {
      // The desk returns the reviewer's conversations, with their tasks, to the queue.
      await exceptions.left(conn);
      conn.job = null;
      return;
    }
    if (conn.job) {
      const released = await returnJobs({ jobId: conn.job.id, assigneeId: conn.userId });
      conn.job = null;
      if (released.length > 0) {
        await bus.publish('jobs.available', { queues: released.map((j) => j.queue) });
      }
    }
  }

  /** Completes the held job with a submission; false when it changed nothing. */
  async function submit(
    conn: Connection,
    event: CloudEvent,
    type: SubmissionType,
  ): Promise<boolean> {
    const parsed = SubmissionData.safeParse(event.data);
    if (!parsed.success) {
      sendError(
        conn,
        `The ${type} data needs the jobId of the job you hold: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'} ${i.message}`).join('; ')}.`,
        event,
      );
      return false;
    }
    const data = parsed.data;
    if (!conn.job || conn.job.id !== data.jobId) {
      sendError(conn, STALE_SUBMISSION_MESSAGE, event);
      return false;
    }
    // The payload of spec 1 §7 for its type; a bad one changes nothing and the job stays held.
    const payload = SUBMISSION_PAYLOADS[type].safeParse(event.data);
    if (!payload.success) {
      sendError(
        conn,
        `The ${type} data does not match its schema: ${describeIssues(payload.error.issues)}. It changed nothing: fix it and submit again.`,
        event,
      );
      return false;
    }
    const refusal = await options.checkSubmission?.(conn.job, type, data);
    if (refusal) {
      sendError(conn, refusal, event);
      return false;
    }
    const completedAt = new Date();
    const result = { type, data };
    const completedJob: JobRow = {
      ...conn.job,
      state: 'completed',
      result,
      completed_at: completedAt,
      lease_expires_at: null,
    };
    const queues = SOURCE_QUEUES[conn.source];
    // A technician of this node who is waiting for the same work goes first: then the answer
    // only completes the job and the claim pass serves the longest-waiting one. (Another node's
    // waiting technicians are served by their own node's claim pass as each job is announced.)
    const othersWait = [...connections.values()].some(
      (c) => c !== conn && canTake(c) && SOURCE_QUEUES[c.source].some((q) => queues.includes(q)),
    );
    const takesNext = queues.length > 0 && !othersWait;
    const completed = await dispatchRepo.complete({
      jobId: data.jobId,
      userId: conn.userId,
      email: conn.email,
      ip: conn.ip,
      connectionId: conn.id,
      result,
      completedAt,
      ...(options.completionEvent
        ? { event: options.completionEvent(completedJob, { type, userId: conn.userId }) }
        : {}),
      // The technician's next job comes in the same statement (no waiting frame, no claim pass).
      ...(takesNext ? { next: { queues, leaseMs: options.leaseMs } } : {}),
    });
    if (!completed) {
      conn.job = null;
      sendError(conn, STALE_SUBMISSION_MESSAGE, event);
      await setState(conn, 'waiting', null);
      announce(conn);
      void dispatch();
      if (conn.source === 'exceptions') {
        await exceptions?.afterTask(conn);
      }
      return false;
    }
    if (completed.next) {
      if (conn.closed) {
        // Closed meanwhile (a server shutdown does not wait for the socket's frames).
        await giveBack(conn.userId, completed.next);
        return true;
      }
      // Still activated: the next job is the only frame.
      sendJob(conn, completed.next);
      return true;
    }
    conn.state = 'waiting';
    conn.job = null;
    conn.waitingSince = Date.now();
    technicianWaits(conn);
    announce(conn);
    void dispatch();
    if (conn.source === 'exceptions') {
      await exceptions?.afterTask(conn);
    }
    return true;
  }

  async function handleFrame(conn: Connection, raw: string): Promise<void> {
    conn.lastFrameAt = Date.now();
    if (Buffer.byteLength(raw) > MAX_FRAME_BYTES) {
      sendError(conn, `The frame is larger than ${MAX_FRAME_BYTES} bytes: it was ignored.`);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      sendError(conn, 'The frame is not JSON: send a CloudEvents 1.0 envelope.');
      return;
    }
    const parsed = CloudEvent.safeParse(json);
    if (!parsed.success) {
      sendError(
        conn,
        `The frame is not a valid CloudEvents envelope: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'frame'} ${i.message}`).join('; ')}.`,
      );
      return;
    }
    const event = parsed.data;
    switch (event.type) {
      case 'pong':
        return;
      case 'technician.session.pause':
        await releaseHeld(conn);
        await setState(conn, 'paused', null);
        announce(conn);
        return;
      case 'technician.session.activate':
        if (conn.state === 'paused') {
          await setState(conn, 'waiting', null);
          announce(conn);
          // Not awaited: the socket's next frames (or its close) need not wait for other passes.
          void dispatch();
          if (conn.source === 'exceptions') {
            await exceptions?.activated(conn);
          }
        } else {
          announce(conn);
        }
        return;
      default:
        break;
    }
    if (!SOCKET_EVENT_TYPES[conn.source].includes(event.type)) {
      const known = Object.values(SOCKET_EVENT_TYPES).some((types) => types.includes(event.type));
      log.info({ type: event.type, source: conn.source }, 'event refused on this socket');
      sendError(
        conn,
        known
          ? `${event.type} is not accepted on the ${conn.source} socket.`
          : `Unknown event type ${event.type}: it was ignored.`,
        event,
      );
      return;
    }
    if ((SUBMISSION_TYPES as readonly string[]).includes(event.type)) {
      await submit(conn, event, event.type as SubmissionType);
      return;
    }
    // Conversation requests of the exception desk: switch, handback, end, manual response.
    if (!exceptions) {
      sendError(conn, `${event.type} is not available on this server.`, event);
      return;
    }
    await exceptions.event(conn, event);
  }

  async function onClose(conn: Connection): Promise<void> {
    if (conn.closed) {
      return;
    }
    conn.closed = true;
    connections.delete(conn.id);
    if (conn.source === 'exceptions' && exceptions) {
      await releaseHeld(conn);
      await sessions.detach(conn.id);
      return;
    }
    // The job in hand, and one the database gave the session whose frame has not gone out yet
    // (a hand-off on its way): the slot is freed first (no hand-off can follow), then both go
    // back. Each statement locks one table, so neither waits on the other's locks in turn.
    const held = conn.job?.id ?? null;
    conn.job = null;
    const assigned = await sessions.detach(conn.id);
    const ids = [...new Set([held, assigned].filter((id): id is string => id !== null))];
    const released = await returnJobs({ jobIds: ids, assigneeId: conn.userId });
    if (released.length > 0) {
      await bus.publish('jobs.available', { queues: released.map((j) => j.queue) });
    }
  }

  return {
    /**
     * Attaches an authenticated socket. A second socket of the same technician and source
     * anywhere in the cluster is closed with 1008.
     */
    attach(
      socket: WebSocket,
      user: { id: string; email: string; roles: readonly Role[] },
      source: SessionSource,
      duplicate: { code: number; message: string },
      ip: string | null = null,
    ): Promise<void> {
      const conn: Connection = {
        id: randomUUID(),
        userId: user.id,
        email: user.email,
        roles: user.roles,
        source,
        socket,
        ip,
        state: 'paused',
        waitingSince: 0,
        job: null,
        recent: [],
        lastFrameAt: Date.now(),
        work: Promise.resolve(),
        closed: false,
      };
      let accepted = false;
      // A reload closes the old socket a moment before the new one arrives, and the old one's
      // slot is held until its close is handled (on this node or another): a refused attach is
      // tried again for a short while before the newcomer is refused as a second session.
      const attachWithGrace = async () => {
        const deadline = Date.now() + ATTACH_GRACE_MS;
        for (;;) {
          const row = await sessions.attach(user.id, source, options.nodeId, conn.id, ip);
          if (row || Date.now() >= deadline || socket.readyState !== socket.OPEN) {
            return row;
          }
          await new Promise((resolve) => setTimeout(resolve, ATTACH_RETRY_MS));
        }
      };
      // Listeners are attached before the first await: frames sent right after the handshake
      // queue behind the session attach instead of being lost.
      conn.work = attachWithGrace().then((row) => {
        if (!row) {
          conn.closed = true;
          socket.close(duplicate.code, duplicate.message.slice(0, 123));
          return;
        }
        accepted = true;
        connections.set(conn.id, conn);
        announce(conn);
      });
      socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        const raw = isBinary
          ? ''
          : Buffer.isBuffer(data)
            ? data.toString('utf8')
            : Array.isArray(data)
              ? Buffer.concat(data).toString('utf8')
              : Buffer.from(data).toString('utf8');
        conn.work = conn.work
          .then(() => {
            if (conn.closed) {
              return undefined;
            }
            return isBinary
              ? sendError(conn, 'Binary frames are not accepted: send JSON text.')
              : handleFrame(conn, raw);
          })
          .catch((error: unknown) => {
            log.error({ err: error }, 'socket frame failed');
            sendError(
              conn,
              'The event could not be processed because of an error on our side; it changed nothing. Try again.',
            );
          });
      });
      socket.on('close', () => {
        conn.work = conn.work
          .then(() => (accepted ? onClose(conn) : undefined))
          .catch((error: unknown) => log.error({ err: error }, 'socket close cleanup failed'));
      });
      socket.on('error', (error) => log.warn({ err: error }, 'socket error'));
      return conn.work.catch((error: unknown) => {
        log.error({ err: error }, 'session attach failed');
        socket.close(1011, 'The session could not start; try again.');
      });
    },

    /** Starts heartbeats, the lease sweeper and the bus subscriptions. */
    start(): void {
      timers.push(
        setInterval(() => {
          const now = Date.now();
          for (const conn of connections.values()) {
            if (now - conn.lastFrameAt > 2 * options.heartbeatMs) {
              log.info(
                { user: conn.email, source: conn.source },
                'socket stopped answering; closing',
              );
              conn.socket.terminate();
              continue;
            }
            send(conn, 'ping', {});
          }
          sessions
            .touch([...connections.keys()])
            .catch((error: unknown) => log.error({ err: error }, 'session heartbeat failed'));
        }, options.heartbeatMs),
        setInterval(() => {
          returnJobs({ expiredBefore: new Date() })
            .then(async (released) => {
              if (released.length > 0) {
                await bus.publish('jobs.withdrawn', { jobIds: released.map((j) => j.id) });
                await bus.publish('jobs.available', { queues: released.map((j) => j.queue) });
              }
              // The safety net of event-driven dispatch: a job whose announcement was lost (Redis
              // down for a moment, a node that died between its commit and its publish) still
              // reaches a waiting technician within one sweep — a job handed to one of this
              // node's sockets whose frame never came as well.
              const idle = [...connections.values()].filter(
                (c) => canTake(c) && !c.job && SOURCE_QUEUES[c.source].length > 0,
              );
              const stranded = await dispatchRepo.heldBy(
                options.nodeId,
                idle.map((c) => c.id),
                new Date(Date.now() - options.sweepMs),
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
            })
            .catch((error: unknown) => log.error({ err: error }, 'lease sweep failed'));
        }, options.sweepMs),
      );
      for (const timer of timers) {
        timer.unref();
      }
      exceptions?.start();
      unsubscribe.push(
        bus.subscribe('jobs.available', () => void dispatch()),
        bus.subscribe('jobs.handed', (message) => {
          if (message.nodeId === options.nodeId) {
            handedHere(message).catch((error: unknown) =>
              log.error({ err: error }, 'hand-off delivery failed'),
            );
          }
        }),
        bus.subscribe('jobs.withdrawn', ({ jobIds }) => {
          for (const conn of connections.values()) {
            if (conn.job && jobIds.includes(conn.job.id)) {
              const current = conn;
              current.work = current.work
                .then(async () => {
                  sendError(
                    current,
                    'The job you held went back to the queue (its time ran out or it was cancelled).',
                  );
                  await setState(current, 'waiting', null);
                  announce(current);
                  if (current.source === 'exceptions') {
                    await exceptions?.afterTask(current);
                  }
                })
                .catch((error: unknown) => log.error({ err: error }, 'withdraw failed'));
            }
          }
        }),
        () => exceptions?.stop(),
        bus.subscribe('sessions.close', ({ userId }) => {
          for (const conn of connections.values()) {
            if (conn.userId === userId) {
              conn.socket.close(ADMIN_CLOSE_CODE, ADMIN_CLOSE_MESSAGE);
            }
          }
        }),
      );
    },

    /** Announces new work to every node. */
    jobsAvailable(queues: string[]): Promise<void> {
      return bus.publish('jobs.available', { queues });
    },

    enqueue,
    announce: announceEnqueued,

    /** enqueue then announce, outside any transaction. */
    async add(job: NewJob): Promise<Enqueued> {
      const enqueued = await enqueue(job);
      await announceEnqueued(enqueued);
      return enqueued;
    },

    /** Submits a portal event that arrived over HTTP (`POST /internal/users/me/_events`). */
    async submitFromHttp(userId: string, event: CloudEvent): Promise<boolean> {
      const data = SubmissionData.safeParse(event.data);
      const conn = [...connections.values()].find(
        (c) => c.userId === userId && data.success && c.job?.id === data.data.jobId,
      );
      if (!conn) {
        return false;
      }
      let completed = false;
      conn.work = conn.work.then(async () => {
        completed = await submit(conn, event, 'dh.portal.hitl.event');
      });
      await conn.work;
      return completed;
    },

    /** Closes every socket (server shutdown); their jobs go back to the queue. */
    async stop(): Promise<void> {
      for (const timer of timers) {
        clearInterval(timer);
      }
      for (const off of unsubscribe) {
        off();
      }
      const open = [...connections.values()];
      for (const conn of open) {
        conn.socket.close(1001, 'The server is restarting; reconnect.');
        await onClose(conn);
      }
      await dispatchRunning;
    },

    /** For tests and metrics: sockets on this node. */
    size(): number {
      return connections.size;
    },

    /** For metrics (platform/metrics.ts): this node's open sockets, each with its kind. */
    sockets: (): Iterable<Pick<Connection, 'source'>> => connections.values(),
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
