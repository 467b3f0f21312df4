import { SESSION_ENDED_CLOSE_CODE, SESSION_ENDED_MESSAGE } from '@loopdesk/contracts/realtime.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Connection } from './connections.ts';
import type { RealtimeHub } from './hub.ts';

/**
 * When a sign-in session ends (`sessions.revoked`, on every node: a logout, a refresh token
 * reused, an idle or absolute timeout found at refresh), this node closes the sockets that
 * session's access tokens opened, with 4001 and SESSION_ENDED_MESSAGE (no reconnect); their jobs
 * go back to the queue as on any close.
 *
 * The bus is not the source of truth: every `checkMs` each socket's session is checked again
 * (from the session cache, so at most one database read per session and cache TTL). That closes
 * the sockets of a session whose message was lost, whose socket was still attaching when the
 * message came, or that timed out with nobody refreshing it. Returns the stop.
 */
export function closeSocketsOnSessionEnd(deps: {
  bus: Bus;
  hub: Pick<RealtimeHub, 'sockets'>;
  sessions: Pick<SessionStore, 'activeUser'>;
  checkMs: number;
  log: Pick<FastifyBaseLogger, 'error'>;
}): () => void {
  const { bus, hub, sessions } = deps;
  const close = (conn: Pick<Connection, 'socket'>) =>
    conn.socket.close(SESSION_ENDED_CLOSE_CODE, SESSION_ENDED_MESSAGE);
  const off = bus.subscribe('sessions.revoked', ({ sessionIds }) => {
    const ended = new Set(sessionIds);
    for (const conn of hub.sockets()) {
      if (conn.sessionId !== null && ended.has(conn.sessionId)) {
        close(conn);
      }
    }
  });
  let checking = false;
  const timer = setInterval(() => {
    if (checking) {
      return;
    }
    checking = true;
    void (async () => {
      for (const conn of [...hub.sockets()]) {
        if (conn.sessionId !== null && !(await sessions.activeUser(conn.sessionId))) {
          close(conn);
        }
      }
    })()
      .catch((error: unknown) => deps.log.error({ err: error }, 'session check of sockets failed'))
      .finally(() => {
        checking = false;
      });
  }, deps.checkMs);
  timer.unref();
  return () => {
    off();
    clearInterval(timer);
  };
}
