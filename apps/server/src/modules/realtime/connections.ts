import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { WebSocket } from 'ws';
import {
  CloudEvent,
  dataschemaUri,
  ERROR_EVENT,
  MAX_FRAME_BYTES,
  PING_EVENT,
  PORTAL_SOURCE,
  SESSION_EVENT_TYPES,
  type SessionSource,
  type SessionState,
} from '@loopdesk/contracts/realtime.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { findUnstorableText } from '../../platform/storable-text.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { SessionsRepository } from './sessions-repository.ts';

/**
 * Connections and frames: a technician's socket on this node, the CloudEvents frames it sends and
 * receives, its attach (one live session per technician and source in the cluster) and the
 * heartbeats that find dead sockets. What a frame means is decided elsewhere (requests.ts).
 */

/** A technician's socket on this node. */
export interface Connection {
  readonly id: string;
  readonly userId: string;
  /** The sign-in session whose access token opened the socket: it closes when that ends. */
  readonly sessionId: string | null;
  readonly email: string;
  readonly roles: readonly Role[];
  readonly source: SessionSource;
  readonly socket: WebSocket;
  /** Where the technician connects from, for the audit trail. */
  readonly ip: string | null;
  /** The server's public origin: frames name their data schema there. */
  readonly origin: string;
  state: SessionState;
  waitingSince: number;
  job: JobRow | null;
  /** The last jobs handed to this socket (`id/attempt`): a repeated announcement is dropped. */
  recent: string[];
  lastFrameAt: number;
  /** Frames of one socket are handled one after another. */
  work: Promise<void>;
  closed: boolean;
  /** How the socket is closed when another socket holds its session (1008, the spec message). */
  readonly duplicate: { readonly code: number; readonly message: string };
}

/** How long a new socket waits for the slot of a socket that is closing (a reload). */
const ATTACH_GRACE_MS = 2000;
const ATTACH_RETRY_MS = 100;

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

/** Sends one CloudEvents frame to an open socket; a closing socket gets nothing. */
export function send(conn: Connection, type: string, data: unknown): void {
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
    dataschema: dataschemaUri(conn.origin, type),
    data,
  };
  conn.socket.send(JSON.stringify(event));
}

/** The `error` event: what went wrong with a frame, naming the frame when there was one. */
export function sendError(
  conn: Connection,
  message: string,
  event?: { id?: string; type?: string },
): void {
  send(conn, ERROR_EVENT, {
    message,
    ...(event?.id ? { eventId: event.id } : {}),
    ...(event?.type ? { eventType: event.type } : {}),
  });
}

/**
 * Closes a socket whose session another socket holds, as a second session is closed: it lost the
 * session while its heartbeats did not land (a paused process, a slow database) and a newer
 * socket took it as stale. Only one socket of a technician and kind stays open.
 */
function closeSuperseded(conn: Connection, log: FastifyBaseLogger): void {
  if (conn.closed) {
    return;
  }
  log.warn({ user: conn.email, source: conn.source }, 'a newer socket holds this session; closing');
  conn.socket.close(conn.duplicate.code, conn.duplicate.message.slice(0, 123));
}

/** Tells the portal the session's state (technician.session.paused/waiting/activated). */
export function announce(conn: Connection): void {
  send(conn, SESSION_EVENT_TYPES[conn.state], { state: conn.state, source: conn.source });
}

/**
 * Reads a text frame as a CloudEvents envelope; anything else is answered with an error event
 * and gives null.
 */
export function parseFrame(conn: Connection, raw: string): CloudEvent | null {
  if (Buffer.byteLength(raw) > MAX_FRAME_BYTES) {
    sendError(conn, `The frame is larger than ${MAX_FRAME_BYTES} bytes: it was ignored.`);
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    sendError(conn, 'The frame is not JSON: send a CloudEvents 1.0 envelope.');
    return null;
  }
  const parsed = CloudEvent.safeParse(json);
  if (!parsed.success) {
    sendError(
      conn,
      `The frame is not a valid CloudEvents envelope: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'frame'} ${i.message}`).join('; ')}.`,
    );
    return null;
  }
  // Text PostgreSQL refuses is refused here as at every route's edge, changing nothing.
  const unstorable = findUnstorableText(parsed.data.data, 'data');
  if (unstorable) {
    sendError(
      conn,
      `${unstorable.path} ${unstorable.message}, then send the event again.`,
      parsed.data,
    );
    return null;
  }
  return parsed.data;
}

/** What a socket's life calls back into: its frames, and its close once it was accepted. */
export interface ConnectionHandlers {
  frame(conn: Connection, raw: string): Promise<void>;
  close(conn: Connection): Promise<void>;
}

/**
 * Attaches an authenticated socket: claims the session slot (a second socket of the same
 * technician and source anywhere in the cluster is closed with `duplicate`), then runs its frames
 * one after another and its close once.
 */
export function attachSocket(
  deps: {
    sessions: SessionsRepository;
    log: FastifyBaseLogger;
    nodeId: string;
    /** The server's public origin (PUBLIC_URL). */
    origin: string;
    connections: Map<string, Connection>;
    handlers: ConnectionHandlers;
  },
  socket: WebSocket,
  user: { id: string; email: string; roles: readonly Role[]; sessionId?: string },
  source: SessionSource,
  duplicate: { code: number; message: string },
  ip: string | null,
): Promise<void> {
  const { sessions, log, connections, handlers } = deps;
  const conn: Connection = {
    id: randomUUID(),
    userId: user.id,
    sessionId: user.sessionId ?? null,
    email: user.email,
    roles: user.roles,
    source,
    socket,
    ip,
    origin: deps.origin,
    state: 'paused',
    waitingSince: 0,
    job: null,
    recent: [],
    lastFrameAt: Date.now(),
    work: Promise.resolve(),
    closed: false,
    duplicate,
  };
  let accepted = false;
  // A reload closes the old socket a moment before the new one arrives, and the old one's
  // slot is held until its close is handled (on this node or another): a refused attach is
  // tried again for a short while before the newcomer is refused as a second session.
  const attachWithGrace = async () => {
    const deadline = Date.now() + ATTACH_GRACE_MS;
    for (;;) {
      const row = await sessions.attach(user.id, source, deps.nodeId, conn.id, ip);
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
    // A socket of this node that held the session until now (it looked stale) gives way.
    for (const other of connections.values()) {
      if (other.userId === conn.userId && other.source === conn.source) {
        closeSuperseded(other, log);
      }
    }
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
          : handlers.frame(conn, raw);
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
      .then(() => (accepted ? handlers.close(conn) : undefined))
      .catch((error: unknown) => log.error({ err: error }, 'socket close cleanup failed'));
  });
  socket.on('error', (error) => log.warn({ err: error }, 'socket error'));
  return conn.work.catch((error: unknown) => {
    log.error({ err: error }, 'session attach failed');
    socket.close(1011, 'The session could not start; try again.');
  });
}

/**
 * One heartbeat: a socket silent for two heartbeats is terminated, every other one is pinged,
 * and the sessions of this node's sockets are marked as seen (other nodes judge staleness by it).
 * A socket whose session a newer socket took meanwhile (on any node) is closed with 1008.
 */
export function heartbeat(deps: {
  connections: Map<string, Connection>;
  sessions: SessionsRepository;
  log: FastifyBaseLogger;
  heartbeatMs: number;
}): void {
  const { connections, log } = deps;
  const now = Date.now();
  for (const conn of connections.values()) {
    if (now - conn.lastFrameAt > 2 * deps.heartbeatMs) {
      log.info({ user: conn.email, source: conn.source }, 'socket stopped answering; closing');
      conn.socket.terminate();
      continue;
    }
    send(conn, PING_EVENT, {});
  }
  deps.sessions
    .touch([...connections.keys()], deps.heartbeatMs / 2)
    .then(async (seen) => {
      for (const conn of connections.values()) {
        if (seen.has(conn.id) || conn.closed) {
          continue;
        }
        const holder = await deps.sessions.holder(conn.userId, conn.source);
        if (holder !== null && holder !== conn.id) {
          closeSuperseded(conn, log);
        }
      }
    })
    .catch((error: unknown) => log.error({ err: error }, 'session heartbeat failed'));
}

/** Runs work after the frames the socket has in hand, one at a time; failures are logged. */
export function serialize(
  conn: Connection,
  log: FastifyBaseLogger,
  what: string,
  work: () => Promise<void>,
): void {
  conn.work = conn.work
    .then(() => (conn.closed ? undefined : work()))
    .catch((error: unknown) => log.error({ err: error }, `${what} failed`));
}
