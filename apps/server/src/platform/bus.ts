import { EventEmitter } from 'node:events';

/** Messages nodes exchange. Nothing on the bus is the source of truth: the database is. */
export interface BusMessages {
  /** New or returned jobs wait in these queues: waiting technicians should claim. */
  'jobs.available': { queues: string[] };
  /** An admin closed (or removed) a technician's sessions: the node holding them acts. */
  'sessions.close': { userId: string; remove: boolean };
  /** Sign-in sessions ended (logout, refresh-token reuse, timeout): nodes drop them from memory. */
  'sessions.revoked': { sessionIds: string[] };
  /** API keys were revoked (committed): nodes drop them from memory (integration/api-keys.ts). */
  'api-keys.revoked': { prefixes: string[] };
  /**
   * An admin replaced a user's roles (committed): nodes close that user's sockets their new roles
   * no longer allow. Their next request with an older access token gets a 401 and is refreshed.
   */
  'users.roles.changed': { userId: string; roles: string[] };
  /** A job left its technician without a submission (lease expiry, cancel). */
  'jobs.withdrawn': { jobIds: string[] };
  /**
   * A new job was handed to a waiting technician whose socket lives on `nodeId` (this attempt,
   * committed): that node sends the frame, or hands the job back when the socket is gone. `job`
   * is the committed row as JSON carries it (timestamps as ISO strings), so the frame needs no
   * read of its own.
   */
  'jobs.handed': {
    nodeId: string;
    connectionId: string;
    jobId: string;
    userId: string;
    attempts: number;
    job: Record<string, unknown>;
  };
  /** Approved async-pipeline work revised the knowledge base: nodes load the new revisions. */
  'knowledge.revised': { revision: number };
  /** The portal asked the assistant something: long-polling assistants should read it. */
  'assistant.requests.created': { id: string };
  /** The assistant answered (or a request failed): the node whose portal request waits replies. */
  'assistant.requests.settled': { id: string };
}

export type BusChannel = keyof BusMessages;

/** Cross-node events: in-process by default; Redis pub/sub when REDIS_URL is set (issue 3). */
export interface Bus {
  publish<C extends BusChannel>(channel: C, message: BusMessages[C]): Promise<void>;
  subscribe<C extends BusChannel>(
    channel: C,
    handler: (message: BusMessages[C]) => void,
  ): () => void;
  close(): Promise<void>;
}

/** The single-node bus. */
export function createInProcessBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(channel, message) {
      // Deliver after the publisher's transaction code continues, as a remote bus would.
      queueMicrotask(() => emitter.emit(channel, message));
      return Promise.resolve();
    },
    subscribe(channel, handler) {
      const listener = (message: BusMessages[typeof channel]) => handler(message);
      emitter.on(channel, listener);
      return () => emitter.off(channel, listener);
    },
    close() {
      emitter.removeAllListeners();
      return Promise.resolve();
    },
  };
}
