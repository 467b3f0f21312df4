import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { ConversationMessage } from '@loopdesk/contracts/conversations.ts';
import {
  EXCEPTION_ERRORS,
  EXCEPTION_EVENTS,
  EXCEPTION_REQUESTS,
  EndRequest,
  HandbackRequest,
  ManualResponse,
  RESTRICTED_EXCEPTIONS_PRIVILEGE,
  SwitchRequest,
  type ExceptionConversation,
  type QueuedConversations,
} from '@loopdesk/contracts/exceptions.ts';
import { hasPrivilege, type Privilege } from '@loopdesk/contracts/privileges.ts';
import type { CloudEvent } from '@loopdesk/contracts/realtime.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError, conflict } from '../../platform/errors.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { Connection, ExceptionsHooks, ExceptionsPort } from '../realtime/hub.ts';
import {
  createConversationsRepository,
  isReviewer,
  toMessage,
  type ConversationRow,
} from '../conversations/repository.ts';
import type { ConversationListener } from '../conversations/service.ts';
import { createExceptionsRepository } from './repository.ts';
import { createExceptionsService, taskConversation, type Origin } from './service.ts';

/** What one node tells the others about the desk (the database stays the truth). */
type DeskChange =
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

const RESTRICTED = RESTRICTED_EXCEPTIONS_PRIVILEGE satisfies Privilege;
const SOCKET_ORIGIN = (conn: Connection): Origin => ({
  ip: conn.ip,
  userAgent: 'exceptions socket',
  requestId: null,
});

export interface DeskOptions {
  db: Database;
  bus: Bus;
  log: FastifyBaseLogger;
  /** Conversations one reviewer holds at most (EXCEPTION_REVIEWER_CAPACITY). */
  capacity: number;
  /** A session not seen for this long is gone (its node died). */
  staleMs: number;
  /** How often stranded conversations are looked for and waiting ones allocated. */
  sweepMs: number;
}

/**
 * The exception desk: allocates handed-over conversations first in, first out to reviewers whose
 * session is on (the fewest held first, then the one who waited longest, never more than the
 * capacity), takes them back when a reviewer leaves, and runs the conversation requests of the
 * `/ws/exceptions` sockets.
 */
export function createExceptionDesk(options: DeskOptions) {
  const { db, bus, log, capacity, staleMs } = options;
  const repo = createExceptionsRepository(db);
  const conversations = createConversationsRepository(db);
  const service = createExceptionsService(db);
  let port: ExceptionsPort | null = null;
  /** The conversation on each socket's screen. */
  const currentOf = new Map<string, string | null>();
  const timers: NodeJS.Timeout[] = [];
  const unsubscribe: (() => void)[] = [];

  // ------------------------------------------------------------------------------ allocation

  let running: Promise<void> | null = null;
  let again = false;

  async function allocateOnce(): Promise<void> {
    const given = await db.transaction().execute(async (trx) => {
      await repo.lockAllocation(trx);
      const reviewers = (await repo.activeReviewers(staleMs, trx)).filter(
        (r) => hasPrivilege(r.roles, 'jobs:exception:perform') && r.held < capacity,
      );
      const byReviewer = new Map<string, string[]>();
      if (reviewers.length === 0) {
        return byReviewer;
      }
      const free = reviewers.reduce((sum, r) => sum + capacity - r.held, 0);
      // Restricted conversations nobody may take do not hold up the others: read past them.
      const waiting = await repo.waiting(free + 200, trx);
      let tick = Date.now();
      for (const conversation of waiting) {
        const candidates = reviewers.filter(
          (r) =>
            r.held < capacity &&
            (conversation.queue !== 'exceptions-restricted' || hasPrivilege(r.roles, RESTRICTED)),
        );
        const pick = candidates.sort(
          (a, b) =>
            a.held - b.held ||
            (a.idleSince?.getTime() ?? 0) - (b.idleSince?.getTime() ?? 0) ||
            a.userId.localeCompare(b.userId),
        )[0];
        if (!pick) {
          continue;
        }
        pick.held += 1;
        tick += 1;
        pick.idleSince = new Date(tick);
        byReviewer.set(pick.userId, [...(byReviewer.get(pick.userId) ?? []), conversation.id]);
      }
      for (const [userId, ids] of byReviewer) {
        await repo.allocate(ids, userId, trx);
        // Handing a conversation to a reviewer shows them patient data: audited.
        for (const id of ids) {
          await recordAudit(
            trx,
            {
              action: 'conversation.allocated',
              outcome: 'success',
              actorId: userId,
              resourceType: 'conversation',
              resourceId: id,
            },
            { ip: null, userAgent: null, requestId: null },
          );
        }
      }
      return byReviewer;
    });
    for (const [userId, conversationIds] of given) {
      await bus.publish('exceptions.changed', { kind: 'allocated', userId, conversationIds });
    }
  }

  /** Allocates waiting conversations; calls during a pass fold into one more pass. */
  function allocate(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await allocateOnce();
        } catch (error) {
          log.error({ err: error }, 'exception allocation failed');
        }
      } while (again);
      running = null;
    })();
    return running;
  }

  /**
   * Takes every conversation of a reviewer back to the queue (they keep their place) and marks
   * their session paused in the same transaction, so the next allocation passes them over.
   */
  async function takeBack(userId: string, connectionId: string | null): Promise<ConversationRow[]> {
    return db.transaction().execute(async (trx) => {
      await repo.lockAllocation(trx);
      if (connectionId) {
        await trx
          .updateTable('technician_sessions')
          .set({
            state: 'paused',
            current_job_id: null,
            waiting_since: null,
            updated_at: new Date(),
          })
          .where('connection_id', '=', connectionId)
          .execute();
      }
      const rows = await repo.returnHeld(userId, trx);
      for (const row of rows) {
        await recordAudit(
          trx,
          {
            action: 'conversation.requeued',
            outcome: 'success',
            actorId: userId,
            resourceType: 'conversation',
            resourceId: row.id,
          },
          { ip: null, userAgent: null, requestId: null },
        );
      }
      return rows;
    });
  }

  /** Conversations held by reviewers whose session is off or gone go back to the queue. */
  async function sweep(): Promise<void> {
    for (const userId of await repo.strandedHolders(staleMs)) {
      const rows = await takeBack(userId, null);
      if (rows.length > 0) {
        log.info({ userId, conversations: rows.length }, 'stranded conversations returned');
        await bus.publish('exceptions.changed', {
          kind: 'removed',
          userId,
          conversationIds: rows.map((r) => r.id),
        });
      }
    }
    await allocate();
  }

  // ------------------------------------------------------------------------------ sockets

  function portOrThrow(): ExceptionsPort {
    if (!port) {
      throw new Error('the exception desk is not attached to the realtime hub');
    }
    return port;
  }

  /** Shows the current conversation's oldest task, or nothing ('Waiting for next message...'). */
  async function showTask(conn: Connection): Promise<void> {
    const p = portOrThrow();
    const current = currentOf.get(conn.id) ?? null;
    if (conn.job && current !== null && taskConversation(conn.job) === current) {
      return;
    }
    const task = current === null ? undefined : await repo.nextTask(conn.userId, current);
    if (task) {
      await p.setState(conn, 'activated', task);
      p.send(conn, task.type, taskEvent(task));
    } else if (conn.job || conn.state === 'activated') {
      await p.setState(conn, 'waiting', null);
    }
  }

  async function switchTo(conn: Connection, conversationId: string | null): Promise<void> {
    currentOf.set(conn.id, conversationId);
    await repo.setCurrent(conn.userId, conversationId);
    if (conversationId !== null) {
      portOrThrow().send(conn, EXCEPTION_EVENTS.switched, { conversationId });
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
      await portOrThrow().setState(conn, 'waiting', null);
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

  async function onChange(conn: Connection, change: DeskChange): Promise<void> {
    const p = portOrThrow();
    switch (change.kind) {
      case 'allocated': {
        if (conn.state === 'paused') {
          return; // taken back already (or soon, by the sweep)
        }
        const items = await repo.held(conn.userId, db, change.conversationIds);
        for (const conversation of items) {
          p.send(conn, EXCEPTION_EVENTS.added, { conversation });
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
          p.send(conn, EXCEPTION_EVENTS.ended, {
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
          p.send(conn, EXCEPTION_EVENTS.messageAdded, {
            conversationId: change.conversationId,
            message: toMessage(row),
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
  }

  /** Runs a request; a refusal becomes the socket's error event and changes nothing. */
  async function guarded(conn: Connection, event: CloudEvent, work: () => Promise<void>) {
    try {
      await work();
    } catch (error) {
      if (error instanceof AppError) {
        portOrThrow().error(conn, error.message, event);
        return;
      }
      throw error;
    }
  }

  function parse<T>(conn: Connection, event: CloudEvent, schema: z.ZodType<T>): T | null {
    const parsed = schema.safeParse(event.data ?? {});
    if (!parsed.success) {
      portOrThrow().error(
        conn,
        `The ${event.type} data is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'data'} ${i.message}`).join('; ')}.`,
        event,
      );
      return null;
    }
    return parsed.data;
  }

  const reviewerOf = (conn: Connection) => ({ id: conn.userId, email: conn.email });

  async function handle(conn: Connection, event: CloudEvent): Promise<void> {
    const p = portOrThrow();
    switch (event.type) {
      case EXCEPTION_REQUESTS.switch: {
        const data = parse(conn, event, SwitchRequest);
        if (!data) {
          return;
        }
        if (!(await service.holds(conn.userId, data.conversationId))) {
          p.error(conn, EXCEPTION_ERRORS.notHolder, event);
          return;
        }
        await switchTo(conn, data.conversationId);
        return;
      }
      case EXCEPTION_REQUESTS.handback: {
        const data = parse(conn, event, HandbackRequest);
        if (!data) {
          return;
        }
        await guarded(conn, event, async () => {
          await service.handBack(reviewerOf(conn), data.conversationId, SOCKET_ORIGIN(conn));
          p.send(conn, EXCEPTION_EVENTS.handedBack, { conversationId: data.conversationId });
          await dropped(conn, data.conversationId);
          void allocate();
        });
        return;
      }
      case EXCEPTION_REQUESTS.end: {
        const data = parse(conn, event, EndRequest);
        if (!data) {
          return;
        }
        await guarded(conn, event, async () => {
          await service.end(reviewerOf(conn), data, SOCKET_ORIGIN(conn));
          p.send(conn, EXCEPTION_EVENTS.ended, {
            conversationId: data.conversationId,
            type: data.type,
            reason: 'ended',
          });
          await dropped(conn, data.conversationId);
          void allocate();
        });
        return;
      }
      case EXCEPTION_REQUESTS.manualResponse: {
        const data = parse(conn, event, ManualResponse);
        if (!data) {
          return;
        }
        await guarded(conn, event, async () => {
          const { message } = await service.respond(reviewerOf(conn), data, SOCKET_ORIGIN(conn));
          p.send(conn, EXCEPTION_EVENTS.manualResponded, {
            conversationId: data.conversationId,
            message,
          });
        });
        return;
      }
      default:
        p.error(conn, `Unknown event type ${event.type}: it was ignored.`, event);
    }
  }

  const hooks = (hubPort: ExceptionsPort): ExceptionsHooks => {
    port = hubPort;
    return {
      async activated(conn) {
        currentOf.set(conn.id, null);
        await repo.resumed(conn.userId);
        await allocate();
      },
      async left(conn) {
        currentOf.delete(conn.id);
        conn.state = 'paused';
        const rows = await takeBack(conn.userId, conn.id);
        if (rows.length > 0) {
          log.info(
            { user: conn.email, conversations: rows.length },
            'reviewer left; conversations rebalanced',
          );
        }
        // Other nodes may hold the reviewers who take them.
        await bus.publish('exceptions.waiting', {});
      },
      event: handle,
      afterTask: showTask,
      start() {
        unsubscribe.push(
          bus.subscribe('exceptions.changed', (change) => {
            for (const conn of port?.connectionsOf(change.userId) ?? []) {
              port?.serialize(conn, () => onChange(conn, change));
            }
          }),
          bus.subscribe('exceptions.waiting', () => void allocate()),
        );
        const timer = setInterval(() => {
          sweep().catch((error: unknown) => log.error({ err: error }, 'exception sweep failed'));
        }, options.sweepMs);
        timer.unref();
        timers.push(timer);
      },
      stop() {
        for (const timer of timers.splice(0)) {
          clearInterval(timer);
        }
        for (const off of unsubscribe.splice(0)) {
          off();
        }
      },
    };
  };

  const listener: ConversationListener = {
    async messageAdded(conversation: ConversationRow, message: ConversationMessage) {
      if (isReviewer(conversation.holder)) {
        await bus.publish('exceptions.changed', {
          kind: 'message',
          userId: conversation.holder,
          conversationId: conversation.id,
          messageId: message.id,
        });
      }
    },
    async handedOver() {
      await allocate();
    },
  };

  return {
    hooks,
    listener,
    service,
    allocate,
    sweep,

    /** After a task's job commits: its holder sees it if the conversation is on their screen. */
    async taskCreated(job: JobRow): Promise<void> {
      const conversationId = taskConversation(job);
      if (job.state === 'assigned' && job.assignee_id && conversationId) {
        await bus.publish('exceptions.changed', {
          kind: 'task',
          userId: job.assignee_id,
          conversationId,
        });
      }
    },

    /** After a manual reply over HTTP: the holder's socket shows it. */
    async replied(conversation: ConversationRow, message: ConversationMessage): Promise<void> {
      await listener.messageAdded(conversation, message);
    },

    /** `GET /internal/conversations/_queued`: the caller's conversations and the current one. */
    async queued(userId: string): Promise<QueuedConversations> {
      const [items, current] = await Promise.all([repo.held(userId), repo.current(userId)]);
      return {
        items,
        current: items.some((i) => i.conversationId === current) ? current : null,
        capacity,
      };
    },

    /**
     * `GET /internal/conversations/_dequeue`: the caller takes the oldest waiting conversation
     * they may take, now, within their capacity; null when none waits.
     */
    async dequeue(user: {
      id: string;
      roles: readonly string[];
    }): Promise<ExceptionConversation | null> {
      const taken = await db.transaction().execute(async (trx) => {
        await repo.lockAllocation(trx);
        const me = (await repo.activeReviewers(staleMs, trx)).find((r) => r.userId === user.id);
        if (!me) {
          throw conflict(EXCEPTION_ERRORS.noSession);
        }
        if (me.held >= capacity) {
          throw conflict(EXCEPTION_ERRORS.atCapacity(capacity));
        }
        const next = (await repo.waiting(500, trx)).find(
          (c) => c.queue !== 'exceptions-restricted' || hasPrivilege(user.roles, RESTRICTED),
        );
        if (!next) {
          return null;
        }
        await repo.allocate([next.id], user.id, trx);
        await recordAudit(
          trx,
          {
            action: 'conversation.allocated',
            outcome: 'success',
            actorId: user.id,
            resourceType: 'conversation',
            resourceId: next.id,
            details: { via: '_dequeue' },
          },
          { ip: null, userAgent: null, requestId: null },
        );
        return next.id;
      });
      if (taken === null) {
        return null;
      }
      await bus.publish('exceptions.changed', {
        kind: 'allocated',
        userId: user.id,
        conversationIds: [taken],
      });
      return (await repo.held(user.id, db, [taken]))[0] ?? null;
    },
  };
}

export type ExceptionDesk = ReturnType<typeof createExceptionDesk>;

/** The data of a task event: the assistant's job data, with the job's id and tenant. */
export function taskEvent(job: JobRow): Record<string, unknown> {
  const payload =
    typeof job.payload === 'object' && job.payload !== null
      ? (job.payload as Record<string, unknown>)
      : { value: job.payload };
  return { ...payload, jobId: job.id, tenant: job.tenant };
}
