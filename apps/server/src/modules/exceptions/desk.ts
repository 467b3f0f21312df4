import type { FastifyBaseLogger } from 'fastify';
import type { ConversationMessage } from '@loopdesk/contracts/conversations.ts';
import {
  EXCEPTION_ERRORS,
  type ExceptionConversation,
  type QueuedConversations,
} from '@loopdesk/contracts/exceptions.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict } from '../../platform/errors.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { Connection } from '../realtime/connections.ts';
import type { HubPort, SocketPolicy } from '../realtime/policy.ts';
import { createSessionsRepository } from '../realtime/sessions-repository.ts';
import {
  createConversationsRepository,
  isReviewer,
  type ConversationRow,
} from '../conversations/repository.ts';
import type { RedFlags } from '../conversations/red-flags.ts';
import type { ConversationListener } from '../conversations/service.ts';
import { allocate as allocationRule, freePlaces, mayTake } from './allocation.ts';
import { createConversationActions } from './conversation-actions.ts';
import { createDeskRedFlags } from './red-flags.ts';
import { createExceptionsRepository } from './repository.ts';
import { createExceptionsService, taskConversation } from './service.ts';
import { createExceptionsSocketPolicy } from './socket-requests.ts';

const NO_ORIGIN = { ip: null, userAgent: null, requestId: null };

export interface DeskOptions {
  db: Database;
  bus: Bus;
  log: FastifyBaseLogger;
  /** The realtime hub's port to the exceptions sockets of this node. */
  port: HubPort;
  /** Conversations one reviewer holds at most (EXCEPTION_REVIEWER_CAPACITY). */
  capacity: number;
  /** A session not seen for this long is gone (its node died). */
  staleMs: number;
  /** How often stranded conversations are looked for and waiting ones allocated. */
  sweepMs: number;
  /** The red flags of patient messages (the conversations module's, issue 20). */
  redFlags: RedFlags;
}

/**
 * The exception desk's lifecycle: allocation passes (the rule is allocation.ts), taking a
 * leaving reviewer's conversations back, the sweep, the bus between nodes, and start/stop. It
 * gives the exceptions socket its policy (socket-requests.ts), whose conversation actions are
 * conversation-actions.ts.
 */
export function createExceptionDesk(options: DeskOptions) {
  const { db, bus, log, port, capacity, staleMs } = options;
  const repo = createExceptionsRepository(db);
  const conversations = createConversationsRepository(db);
  const service = createExceptionsService(db);
  const sessions = createSessionsRepository(db, staleMs);
  const redFlags = createDeskRedFlags(options.redFlags, conversations);
  const timers: NodeJS.Timeout[] = [];
  const unsubscribe: (() => void)[] = [];

  // ------------------------------------------------------------------------------ allocation

  let running: Promise<void> | null = null;
  let again = false;

  async function allocateOnce(): Promise<void> {
    const given = await db.transaction().execute(async (trx) => {
      await repo.lockAllocation(trx);
      const reviewers = await repo.activeReviewers(staleMs, trx);
      const free = freePlaces(reviewers, capacity);
      if (free === 0) {
        return new Map<string, string[]>();
      }
      // Restricted conversations nobody may take do not hold up the others: read past them.
      const waiting = await repo.waiting(free + 200, trx);
      const byReviewer = allocationRule(reviewers, waiting, capacity, Date.now());
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
            NO_ORIGIN,
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
        await sessions.setState(connectionId, 'paused', null, trx);
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
          NO_ORIGIN,
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

  const actions = createConversationActions({
    db,
    port,
    repo,
    conversations,
    service,
    allocate,
    redFlags,
  });

  /** Stops the sweep and the bus subscriptions (server shutdown, before the sockets close). */
  function stop(): void {
    for (const timer of timers.splice(0)) {
      clearInterval(timer);
    }
    for (const off of unsubscribe.splice(0)) {
      off();
    }
  }

  const socketPolicy = createExceptionsSocketPolicy({
    port,
    actions,
    async resumed(conn: Connection) {
      actions.resumed(conn);
      await repo.resumed(conn.userId);
      await allocate();
    },
    async left(conn: Connection) {
      actions.left(conn);
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
  });
  const policy: SocketPolicy = { ...socketPolicy, stop };

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
    /** The exceptions socket's policy, for `hub.usePolicy('exceptions', …)`. */
    policy,
    /** What the conversations service tells the desk: new messages, new handovers. */
    listener,
    service,
    allocate,
    sweep,

    /** Listens to the other nodes and starts the sweep. */
    start(): void {
      unsubscribe.push(
        bus.subscribe('exceptions.changed', (change) => {
          for (const conn of port.connectionsOf(change.userId)) {
            port.serialize(conn, () => actions.applyChange(conn, change));
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

    stop,

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
      const [held, current] = await Promise.all([repo.held(userId), repo.current(userId)]);
      const items = await redFlags.ofConversations(held);
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
        const next = (await repo.waiting(500, trx)).find((c) => mayTake(user.roles, c));
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
          NO_ORIGIN,
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
      return (await redFlags.ofConversations(await repo.held(user.id, db, [taken])))[0] ?? null;
    },
  };
}

export type ExceptionDesk = ReturnType<typeof createExceptionDesk>;
