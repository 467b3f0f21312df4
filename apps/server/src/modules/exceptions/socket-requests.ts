import type { z } from 'zod';
import {
  EXCEPTION_REQUESTS,
  EXCEPTION_REQUEST_TYPES,
  EndRequest,
  HandbackRequest,
  ManualResponse,
  SwitchRequest,
} from '@loopdesk/contracts/exceptions.ts';
import { SUBMISSION_TYPES, type CloudEvent } from '@loopdesk/contracts/realtime.ts';
import { AppError } from '../../platform/errors.ts';
import type { Connection } from '../realtime/connections.ts';
import type { HubPort, SocketPolicy } from '../realtime/policy.ts';
import type { ConversationActions } from './conversation-actions.ts';

/**
 * The exceptions socket's policy (`/ws/exceptions`): the desk, not the claim passes, hands its
 * reviewers work — conversations, and each conversation's tasks to the reviewer who holds it — so
 * it takes no queue. Resume lets conversations come; pause or close takes them back for the
 * other reviewers; after a task the next task of the conversation on screen shows; switch,
 * handback, end and manual response are the desk's requests.
 */
export function createExceptionsSocketPolicy(deps: {
  port: HubPort;
  actions: ConversationActions;
  /** The reviewer resumed: record it and allocate. */
  resumed(conn: Connection): Promise<void>;
  /** The reviewer paused or closed: their conversations go back and on to other reviewers. */
  left(conn: Connection): Promise<void>;
}): SocketPolicy {
  const { port, actions } = deps;

  /** Runs a request; a refusal becomes the socket's error event and changes nothing. */
  async function guarded(conn: Connection, event: CloudEvent, work: () => Promise<void>) {
    try {
      await work();
    } catch (error) {
      if (error instanceof AppError) {
        port.error(conn, error.message, event);
        return;
      }
      throw error;
    }
  }

  function parse<T>(conn: Connection, event: CloudEvent, schema: z.ZodType<T>): T | null {
    const parsed = schema.safeParse(event.data ?? {});
    if (!parsed.success) {
      port.error(
        conn,
        `The ${event.type} data is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'} ${i.message}`).join('; ')}.`,
        event,
      );
      return null;
    }
    return parsed.data;
  }

  /** The desk's requests by type, the way a handler map works. */
  const requests: Record<
    (typeof EXCEPTION_REQUESTS)[keyof typeof EXCEPTION_REQUESTS],
    (conn: Connection, event: CloudEvent) => Promise<void>
  > = {
    [EXCEPTION_REQUESTS.switch]: async (conn, event) => {
      const data = parse(conn, event, SwitchRequest);
      if (data) {
        await actions.switchConversation(conn, event, data.conversationId);
      }
    },
    [EXCEPTION_REQUESTS.handback]: async (conn, event) => {
      const data = parse(conn, event, HandbackRequest);
      if (data) {
        await guarded(conn, event, () => actions.handBack(conn, data.conversationId));
      }
    },
    [EXCEPTION_REQUESTS.end]: async (conn, event) => {
      const data = parse(conn, event, EndRequest);
      if (data) {
        await guarded(conn, event, () => actions.end(conn, data));
      }
    },
    [EXCEPTION_REQUESTS.manualResponse]: async (conn, event) => {
      const data = parse(conn, event, ManualResponse);
      if (data) {
        await guarded(conn, event, () => actions.respond(conn, data));
      }
    },
  };
  const isRequest = (type: string): type is keyof typeof requests => Object.hasOwn(requests, type);

  async function releaseHeld(conn: Connection): Promise<void> {
    // The desk returns the reviewer's conversations, with their tasks, to the queue.
    await deps.left(conn);
    conn.job = null;
  }

  return {
    queues: [],
    acceptedEvents: [...SUBMISSION_TYPES, ...EXCEPTION_REQUEST_TYPES],
    onActivated: (conn) => deps.resumed(conn),
    releaseHeld,
    afterTask: (conn) => actions.showTask(conn),
    async onClose(conn) {
      await releaseHeld(conn);
      await port.detach(conn);
    },
    async handleRequest(conn, event) {
      if (!isRequest(event.type)) {
        port.error(conn, `Unknown event type ${event.type}: it was ignored.`, event);
        return;
      }
      await requests[event.type](conn, event);
    },
  };
}
