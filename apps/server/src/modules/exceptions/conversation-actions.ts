import { EXCEPTION_ERRORS, EXCEPTION_EVENTS } from '@loopdesk/contracts/exceptions.ts';
import type { EndType } from '@loopdesk/contracts/conversations.ts';
import type { CloudEvent } from '@loopdesk/contracts/realtime.ts';
import type { Database } from '../../platform/db/database.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { Connection } from '../realtime/connections.ts';
import type { HubPort } from '../realtime/policy.ts';
import { toMessage, type ConversationsRepository } from '../conversations/repository.ts';
import type { DeskRedFlags } from './red-flags.ts';
import type { ExceptionsRepository } from './repository.ts';
import { taskConversation, type ExceptionsService, type Origin } from './service.ts';

/** What one node tells the others about the desk (the database stays the truth). */
export type DeskChange =
  | { kind: 'allocated'; userId: string; conversationIds: string[] }
  | { kind: 'removed'; userId: string; conversationIds: string[] }
  | { kind: 'message'; userId: string; conversationId: string; messageId: string }
  | { kind: 'task'; userId: string; conversationId: string };

declare module '../../platform/bus.ts' {
  interface BusMessages {
    /** A reviewer's conversations changed: the node holding their socket tells the portal. */
    'exceptions.changed': DeskChange;
    /** Conversations wait for reviewers: some node should allocate. */
    'exceptions.waiting': Record<string, never>;
  }
}

const SOCKET_ORIGIN = (conn: Connection): Origin => ({
  ip: conn.ip,
  userAgent: 'exceptions socket',
  requestId: null,
});

const reviewerOf = (conn: Connection) => ({ id: conn.userId, email: conn.email });

/** The data of a task event: the assistant's job data, with the job's id and tenant. */
export function taskEvent(job: JobRow): Record<string, unknown> {
  const payload =
    typeof job.payload === 'object' && job.payload !== null
      ? (job.payload as Record<string, unknown>)
      : { value: job.payload };
  return { ...payload, jobId: job.id, tenant: job.tenant };
}

/**
 * Conversation actions at the desk, as a reviewer's screen sees them: which conversation is on
 * each socket's screen and its oldest task; switch, handback, end and manual response; and the
 * desk's changes (allocated, removed, a patient's message, a new task) shown on the screens of
 * this node. Each action's transaction is the exceptions service's.
 */
export function createConversationActions(deps: {
  db: Database;
  port: HubPort;
  repo: ExceptionsRepository;
  conversations: ConversationsRepository;
  service: ExceptionsService;
  /** Runs an allocation pass (a handback or an end frees a place). */
  allocate: () => Promise<void>;
  /** Marks the red flags of patient messages and of the conversations they are in (issue 20). */
  redFlags: DeskRedFlags;
}) {
  const { db, port, repo, conversations, service, redFlags } = deps;
  /** The conversation on each socket's screen. */
  const currentOf = new Map<string, string | null>();

  /** Shows the current conversation's oldest task, or nothing ('Waiting for next message...'). */
  async function showTask(conn: Connection): Promise<void> {
    const current = currentOf.get(conn.id) ?? null;
    if (conn.job && current !== null && taskConversation(conn.job) === current) {
      return;
    }
    const task = current === null ? undefined : await repo.nextTask(conn.userId, current);
    if (task) {
      await port.setState(conn, 'activated', task);
      port.send(conn, task.type, taskEvent(task));
    } else if (conn.job || conn.state === 'activated') {
      await port.setState(conn, 'waiting', null);
    }
  }

  async function switchTo(conn: Connection, conversationId: string | null): Promise<void> {
    currentOf.set(conn.id, conversationId);
    await repo.setCurrent(conn.userId, conversationId);
    if (conversationId !== null) {
      port.send(conn, EXCEPTION_EVENTS.switched, { conversationId });
    }
    await showTask(conn);
  }

  /**
   * A conversation left this reviewer: off the screen, and its task with it. When it was the one
   * on screen and they hold others, the next comes on screen at once (one the patient wrote in
   * first, else the oldest), so no held patient waits behind an empty screen.
   */
  async function dropped(conn: Connection, conversationId: string): Promise<void> {
    if (conn.job && taskConversation(conn.job) === conversationId) {
      await port.setState(conn, 'waiting', null);
    }
    if (currentOf.get(conn.id) !== conversationId) {
      return;
    }
    currentOf.set(conn.id, null);
    const others = (await repo.held(conn.userId)).filter(
      (c) => c.conversationId !== conversationId,
    );
    const next = others.find((c) => !c.read) ?? others[0];
    if (next) {
      await switchTo(conn, next.conversationId);
    }
  }

  return {
    showTask,

    /** The reviewer resumed: nothing on screen until a conversation comes. */
    resumed(conn: Connection): void {
      currentOf.set(conn.id, null);
    },

    /** The reviewer left (paused or closed): the socket has no screen any more. */
    left(conn: Connection): void {
      currentOf.delete(conn.id);
    },

    /** Shows a desk change on one of this node's sockets of the reviewer it concerns. */
    async applyChange(conn: Connection, change: DeskChange): Promise<void> {
      switch (change.kind) {
        case 'allocated': {
          if (conn.state === 'paused') {
            return; // taken back already (or soon, by the sweep)
          }
          const items = await redFlags.ofConversations(
            await repo.held(conn.userId, db, change.conversationIds),
          );
          for (const conversation of items) {
            port.send(conn, EXCEPTION_EVENTS.added, { conversation });
          }
          const current = currentOf.get(conn.id) ?? null;
          const first = items[0];
          if (first && (current === null || !(await service.holds(conn.userId, current)))) {
            await switchTo(conn, first.conversationId);
          }
          return;
        }
        case 'removed':
          for (const conversationId of change.conversationIds) {
            port.send(conn, EXCEPTION_EVENTS.ended, {
              conversationId,
              type: null,
              reason: 'rebalanced',
            });
            await dropped(conn, conversationId);
          }
          return;
        case 'message': {
          const row = await conversations.findMessage(change.conversationId, change.messageId);
          const conversation = await conversations.findConversation(change.conversationId);
          if (row && conversation?.holder === conn.userId) {
            await redFlags.ready();
            port.send(conn, EXCEPTION_EVENTS.messageAdded, {
              conversationId: change.conversationId,
              message: redFlags.mark(toMessage(row)),
            });
          }
          return;
        }
        case 'task':
          if (currentOf.get(conn.id) === change.conversationId && !conn.job) {
            await showTask(conn);
          }
          return;
      }
    },

    /** Puts a held conversation on the reviewer's screen. */
    async switchConversation(
      conn: Connection,
      event: CloudEvent,
      conversationId: string,
    ): Promise<void> {
      if (!(await service.holds(conn.userId, conversationId))) {
        port.error(conn, EXCEPTION_ERRORS.notHolder, event);
        return;
      }
      await switchTo(conn, conversationId);
    },

    /** Gives the conversation back to the assistant; the freed place is allocated. */
    async handBack(conn: Connection, conversationId: string): Promise<void> {
      await service.handBack(reviewerOf(conn), conversationId, SOCKET_ORIGIN(conn));
      port.send(conn, EXCEPTION_EVENTS.handedBack, { conversationId });
      await dropped(conn, conversationId);
      void deps.allocate();
    },

    /** Ends the encounter (END or TERMINATE); the freed place is allocated. */
    async end(
      conn: Connection,
      request: { conversationId: string; type: EndType; appointmentId?: string | undefined },
    ): Promise<void> {
      await service.end(reviewerOf(conn), request, SOCKET_ORIGIN(conn));
      port.send(conn, EXCEPTION_EVENTS.ended, {
        conversationId: request.conversationId,
        type: request.type,
        reason: 'ended',
      });
      await dropped(conn, request.conversationId);
      void deps.allocate();
    },

    /** Sends a manual reply in a held conversation. */
    async respond(
      conn: Connection,
      response: Parameters<ExceptionsService['respond']>[1],
    ): Promise<void> {
      const { message } = await service.respond(reviewerOf(conn), response, SOCKET_ORIGIN(conn));
      port.send(conn, EXCEPTION_EVENTS.manualResponded, {
        conversationId: response.conversationId,
        message,
      });
    },
  };
}

export type ConversationActions = ReturnType<typeof createConversationActions>;
