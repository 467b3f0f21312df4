import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  ADMIN_CLOSE_CODE,
  ADMIN_CLOSE_MESSAGE,
  SOURCES,
  SubmissionData,
  type CloudEvent,
  type SessionSource,
} from '@loopdesk/contracts/realtime.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobsRepository, NewJob } from '../jobs/repository.ts';
import {
  announce,
  attachSocket,
  heartbeat,
  send,
  sendError,
  serialize,
  type Connection,
} from './connections.ts';
import type { AgreementOptions } from './agreement.ts';
import { createDispatch, type Enqueued } from './dispatch.ts';
import type { HubContext } from './hub-context.ts';
import { createPolicyTable, type HubPort, type SocketPolicy } from './policy.ts';
import { defaultPolicies } from './queue-policies.ts';
import { createRequestRouter } from './requests.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import { createSubmission, type SubmissionCheck } from './submission.ts';

export interface HubOptions {
  db: Database;
  bus: Bus;
  jobs: JobsRepository;
  sessions: SessionsRepository;
  log: FastifyBaseLogger;
  nodeId: string;
  /** The server's public origin (PUBLIC_URL): frames name their data schemas there. */
  origin: string;
  leaseMs: number;
  /** The dispatch lane for claims (DatabaseHandle.dispatchDb); `db` when absent. */
  dispatchDb?: Database;
  /** Attempts before a job without its own limit is dead-lettered (JOB_MAX_ATTEMPTS). */
  maxAttempts?: number;
  heartbeatMs: number;
  /** A session not seen for this long has no live socket (default three heartbeats). */
  staleMs?: number;
  sweepMs: number;
  /** Agreement sampling of federated jobs (issue 16): AGREEMENT_SAMPLE_SHARE and its bound. */
  agreement?: AgreementOptions;
}

/**
 * Technician sockets of this node, put together from its concerns: connections and frames
 * (connections.ts), dispatch (dispatch.ts), submission (submission.ts) and request routing
 * (requests.ts), with one policy per socket kind (policy.ts) where the kinds differ.
 */
export function createRealtimeHub(options: HubOptions) {
  const { bus, sessions, log } = options;
  const connections = new Map<string, Connection>();
  const policies = createPolicyTable();
  const ctx: HubContext = {
    db: options.db,
    dispatchDb: options.dispatchDb ?? options.db,
    bus,
    jobs: options.jobs,
    sessions,
    log,
    nodeId: options.nodeId,
    leaseMs: options.leaseMs,
    maxAttempts: options.maxAttempts,
    staleMs: options.staleMs ?? 3 * options.heartbeatMs,
    sweepMs: options.sweepMs,
    agreement: options.agreement,
    connections,
    policies,
  };
  const dispatch = createDispatch(ctx);
  const submission = createSubmission(ctx, dispatch);
  const router = createRequestRouter(ctx, dispatch, submission);
  const defaults = defaultPolicies({ dispatch, sessions });
  for (const source of SOURCES) {
    policies.set(source, defaults[source]);
  }

  const timers: NodeJS.Timeout[] = [];
  const unsubscribe: (() => void)[] = [];

  async function onClose(conn: Connection): Promise<void> {
    if (conn.closed) {
      return;
    }
    conn.closed = true;
    connections.delete(conn.id);
    await policies.get(conn.source).onClose(conn);
  }

  const handlers = { frame: router.handleFrame, close: onClose };

  return {
    /**
     * Attaches an authenticated socket. A second socket of the same technician and source
     * anywhere in the cluster is closed with 1008.
     */
    attach(
      socket: WebSocket,
      user: { id: string; email: string; roles: readonly Role[]; sessionId?: string },
      source: SessionSource,
      duplicate: { code: number; message: string },
      ip: string | null = null,
    ): Promise<void> {
      return attachSocket(
        { sessions, log, nodeId: options.nodeId, origin: options.origin, connections, handlers },
        socket,
        user,
        source,
        duplicate,
        ip,
      );
    },

    /**
     * What a socket kind's policy uses to talk to its sockets (the exception desk builds its
     * policy with the exceptions port).
     */
    port(source: SessionSource): HubPort {
      return {
        send: (conn, type, data) => send(conn, type, data),
        error: (conn, message, event) => sendError(conn, message, event),
        setState: async (conn, state, job) => {
          await dispatch.setState(conn, state, job);
          announce(conn);
        },
        connectionsOf: (userId) =>
          [...connections.values()].filter(
            (c) => c.userId === userId && c.source === source && !c.closed,
          ),
        serialize: (conn, work) => serialize(conn, log, `${source} socket work`, work),
        detach: (conn) => sessions.detach(conn.id),
      };
    },

    /** Replaces the policy of a socket kind (the exception desk's, for the exceptions socket). */
    usePolicy(source: SessionSource, policy: SocketPolicy): void {
      policies.set(source, policy);
    },

    /**
     * Adds a rule every submission must meet before it completes its job (the workbench rules,
     * added by the module that owns them); the first refusal is the technician's error event.
     */
    addSubmissionCheck(check: SubmissionCheck): void {
      submission.addCheck(check);
    },

    /** Starts heartbeats, the lease sweeper and the bus subscriptions. */
    start(): void {
      timers.push(
        setInterval(
          () => heartbeat({ connections, sessions, log, heartbeatMs: options.heartbeatMs }),
          options.heartbeatMs,
        ),
        setInterval(() => {
          dispatch
            .sweep()
            .catch((error: unknown) => log.error({ err: error }, 'lease sweep failed'));
        }, options.sweepMs),
      );
      for (const timer of timers) {
        timer.unref();
      }
      unsubscribe.push(
        bus.subscribe('jobs.available', ({ queues }) => void dispatch.workAvailable(queues)),
        bus.subscribe('jobs.handed', (message) => {
          if (message.nodeId === options.nodeId) {
            dispatch
              .handedHere(message)
              .catch((error: unknown) => log.error({ err: error }, 'hand-off delivery failed'));
          }
        }),
        bus.subscribe('jobs.withdrawn', ({ jobIds }) => {
          // Checked after each socket's work in hand: a frame of the job may be on its way there
          // (a hand-off delivered just before the job was cancelled).
          for (const conn of connections.values()) {
            const current = conn;
            current.work = current.work
              .then(async () => {
                if (current.closed || !current.job || !jobIds.includes(current.job.id)) {
                  return;
                }
                sendError(
                  current,
                  'The job you held went back to the queue (its time ran out or it was cancelled).',
                );
                await dispatch.setState(current, 'waiting', null);
                announce(current);
                await policies.get(current.source).afterTask?.(current);
              })
              .catch((error: unknown) => log.error({ err: error }, 'withdraw failed'));
          }
        }),
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

    /**
     * Stores a new job, in the caller's transaction when given, handing it straight to a waiting
     * technician when one can take it; call `announce` once the transaction has committed.
     */
    enqueue: dispatch.enqueue,
    /** After an enqueue committed: the frame to its technician, or word that its queue has work. */
    announce: dispatch.announceEnqueued,

    /** enqueue then announce, outside any transaction. */
    async add(job: NewJob): Promise<Enqueued> {
      const enqueued = await dispatch.enqueue(job);
      await dispatch.announceEnqueued(enqueued);
      return enqueued;
    },

    /**
     * Submits a portal event that arrived over HTTP (`POST /internal/users/me/_events`):
     * 'completed' when it completed the job the user holds, 'taken' when the same event already
     * completed it (the portal sends it on the socket too, spec 1 §7), else 'refused'.
     */
    async submitFromHttp(
      userId: string,
      event: CloudEvent,
    ): Promise<'completed' | 'taken' | 'refused'> {
      const data = SubmissionData.safeParse(event.data);
      const jobId = data.success ? data.data.jobId : null;
      const conn = [...connections.values()].find(
        (c) => c.userId === userId && jobId !== null && c.job?.id === jobId,
      );
      if (conn) {
        let completed = false;
        conn.work = conn.work.then(async () => {
          // The socket's copy may have completed it meanwhile: then this one is not stale.
          if (conn.job?.id === jobId) {
            completed = await submission.submit(conn, event, 'dh.portal.hitl.event');
          }
        });
        await conn.work;
        if (completed) {
          return 'completed';
        }
      }
      return (await submission.portalEventTaken(userId, event)) ? 'taken' : 'refused';
    },

    /** Closes every socket (server shutdown); their jobs go back to the queue. */
    async stop(): Promise<void> {
      for (const timer of timers) {
        clearInterval(timer);
      }
      for (const off of unsubscribe) {
        off();
      }
      for (const [, policy] of policies.entries()) {
        policy.stop?.();
      }
      const open = [...connections.values()];
      for (const conn of open) {
        conn.socket.close(1001, 'The server is restarting; reconnect.');
        await onClose(conn);
      }
      await dispatch.running();
    },

    /** For tests and metrics: sockets on this node. */
    size(): number {
      return connections.size;
    },

    /** For metrics and role changes: this node's open sockets, each with its kind and user. */
    sockets: (): Iterable<Pick<Connection, 'source' | 'userId' | 'sessionId' | 'socket'>> =>
      connections.values(),
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
