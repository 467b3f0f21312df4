import {
  PONG_EVENT,
  STATE_REQUESTS,
  SUBMISSION_TYPES,
  type SubmissionType,
} from '@loopdesk/contracts/realtime.ts';
import { announce, parseFrame, sendError, type Connection } from './connections.ts';
import type { Dispatch } from './dispatch.ts';
import type { HubContext } from './hub-context.ts';
import type { Submission } from './submission.ts';

const submissionTypes: readonly string[] = SUBMISSION_TYPES;

/**
 * Request routing: which portal event goes where. 'pong' only proves the socket alive; pause and
 * resume change the session state (the socket's policy releases or hands out work); a submission
 * completes the held job; any other event the socket's policy accepts is the policy's to handle,
 * and the rest is refused with an error event.
 */
export function createRequestRouter(ctx: HubContext, dispatch: Dispatch, submission: Submission) {
  const { policies, log } = ctx;

  /** Paused: what the technician holds goes back, and the portal is told. */
  async function pause(conn: Connection): Promise<void> {
    await policies.get(conn.source).releaseHeld(conn);
    await dispatch.setState(conn, 'paused', null);
    announce(conn);
  }

  /** Resumed: the session waits for work (a resumed session only announces its state again). */
  async function activate(conn: Connection): Promise<void> {
    if (conn.state !== 'paused') {
      announce(conn);
      return;
    }
    await dispatch.setState(conn, 'waiting', null);
    announce(conn);
    // Not awaited: the socket's next frames (or its close) need not wait for other passes.
    void dispatch.dispatch();
    await policies.get(conn.source).onActivated?.(conn);
  }

  /** Handles one text frame of a socket (frames of one socket run one after another). */
  async function handleFrame(conn: Connection, raw: string): Promise<void> {
    const received = performance.now();
    conn.lastFrameAt = Date.now();
    const event = parseFrame(conn, raw);
    if (!event) {
      return;
    }
    switch (event.type) {
      case PONG_EVENT:
        return;
      case STATE_REQUESTS.pause:
        await pause(conn);
        return;
      case STATE_REQUESTS.activate:
        await activate(conn);
        return;
      default:
        break;
    }
    const policy = policies.get(conn.source);
    if (!policy.acceptedEvents.includes(event.type)) {
      const known = policies.entries().some(([, p]) => p.acceptedEvents.includes(event.type));
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
    if (submissionTypes.includes(event.type)) {
      await submission.submit(conn, event, event.type as SubmissionType, received);
      return;
    }
    if (!policy.handleRequest) {
      sendError(conn, `${event.type} is not available on this server.`, event);
      return;
    }
    await policy.handleRequest(conn, event);
  }

  return { handleFrame };
}
