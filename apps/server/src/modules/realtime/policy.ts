import type { QueueName } from '@loopdesk/contracts/jobs.ts';
import type { CloudEvent, SessionSource, SessionState } from '@loopdesk/contracts/realtime.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { Connection } from './connections.ts';

/**
 * What differs between the kinds of technician socket, in one object per kind, the way a handler
 * map works: the hub runs the same session life for every socket (attach, pause, resume,
 * submissions, close) and asks the socket's policy where the kinds differ. The federated and
 * priority sockets take jobs from their queues (queue-policies.ts); the exceptions socket's
 * policy is the exception desk's (modules/exceptions/socket-requests.ts).
 */
export interface SocketPolicy {
  /** The queues whose jobs the claim passes and hand-offs give this socket; none when the policy
   * hands out its own tasks. */
  readonly queues: readonly QueueName[];
  /** Portal events this socket takes besides the state requests and 'pong'. */
  readonly acceptedEvents: readonly string[];
  /** The technician pressed Resume: the session waits, and the policy may hand out work. */
  onActivated?(conn: Connection): Promise<void>;
  /** The technician paused (or the socket is closing): what they hold goes back. */
  releaseHeld(conn: Connection): Promise<void>;
  /** A task was submitted, found stale or taken away: what the technician sees next. */
  afterTask?(conn: Connection): Promise<void>;
  /** The socket closed (already out of this node's sockets): free its session and its work. */
  onClose(conn: Connection): Promise<void>;
  /** An accepted event that is neither a state request nor a submission. */
  handleRequest?(conn: Connection, event: CloudEvent): Promise<void>;
  /** Server shutdown: the policy's own timers and listeners stop before the sockets close. */
  stop?(): void;
}

/** One policy per socket kind: a new kind does not compile until it has one. */
export type SocketPolicies = Record<SessionSource, SocketPolicy>;

/** What the hub lends a policy to talk to the sockets of its kind. */
export interface HubPort {
  send(conn: Connection, type: string, data: unknown): void;
  error(conn: Connection, message: string, event?: { id?: string; type?: string }): void;
  /** Sets, records and announces the session state, holding this task (or none). */
  setState(conn: Connection, state: SessionState, job: JobRow | null): Promise<void>;
  /** This node's open sockets of this kind for a technician. */
  connectionsOf(userId: string): Connection[];
  /** Runs work after the frames the socket has in hand, one at a time. */
  serialize(conn: Connection, work: () => Promise<void>): void;
  /** Frees the socket's session slot; the id of a job the database had given it, if any. */
  detach(conn: Connection): Promise<string | null>;
}

/** The policy of each socket kind on this node; set at start, the desk's replacing the default. */
export function createPolicyTable() {
  const table = new Map<SessionSource, SocketPolicy>();
  return {
    /** The policy of a socket kind (every kind has one once the hub is built). */
    get(source: SessionSource): SocketPolicy {
      const policy = table.get(source);
      if (!policy) {
        throw new Error(`no socket policy for ${source}`);
      }
      return policy;
    },
    set(source: SessionSource, policy: SocketPolicy): void {
      table.set(source, policy);
    },
    /** Every kind with its policy. */
    entries(): [SessionSource, SocketPolicy][] {
      return [...table.entries()];
    },
  };
}

export type PolicyTable = ReturnType<typeof createPolicyTable>;
