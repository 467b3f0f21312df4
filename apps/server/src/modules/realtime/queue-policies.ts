import { EXCEPTION_REQUEST_TYPES } from '@loopdesk/contracts/exceptions.ts';
import type { QueueName } from '@loopdesk/contracts/jobs.ts';
import { SUBMISSION_TYPES } from '@loopdesk/contracts/realtime.ts';
import type { Dispatch } from './dispatch.ts';
import type { SocketPolicies, SocketPolicy } from './policy.ts';
import type { SessionsRepository } from './sessions-repository.ts';

/**
 * The policy of a socket that takes jobs from its queues, first by priority then by age: the
 * federated and priority sockets. What a technician holds goes back to the head of its queue
 * when they pause or their socket closes.
 */
export function jobQueuePolicy(
  queues: readonly QueueName[],
  deps: { dispatch: Dispatch; sessions: SessionsRepository },
): SocketPolicy {
  const { dispatch, sessions } = deps;
  return {
    queues,
    acceptedEvents: SUBMISSION_TYPES,
    async releaseHeld(conn) {
      if (conn.job) {
        const jobId = conn.job.id;
        conn.job = null;
        await dispatch.returnAndAnnounce({ jobId, assigneeId: conn.userId });
      }
    },
    async onClose(conn) {
      // The job in hand, and one the database gave the session whose frame has not gone out yet
      // (a hand-off on its way): the slot is freed first (no hand-off can follow), then both go
      // back. Each statement locks one table, so neither waits on the other's locks in turn.
      const held = conn.job?.id ?? null;
      conn.job = null;
      const assigned = await sessions.detach(conn.id);
      const ids = [...new Set([held, assigned].filter((id): id is string => id !== null))];
      await dispatch.returnAndAnnounce({ jobIds: ids, assigneeId: conn.userId });
    },
  };
}

/**
 * The exceptions socket before (or without) the exception desk: no queue of its own, since the
 * desk hands its reviewers conversations and each conversation's tasks go to the reviewer who
 * holds it (modules/exceptions), never to whoever waits longest. Its conversation requests are
 * known but answered as unavailable.
 */
export function deskLessExceptionsPolicy(deps: {
  dispatch: Dispatch;
  sessions: SessionsRepository;
}): SocketPolicy {
  return {
    ...jobQueuePolicy([], deps),
    acceptedEvents: [...SUBMISSION_TYPES, ...EXCEPTION_REQUEST_TYPES],
  };
}

/** The policies a hub starts with; the exception desk replaces the exceptions one. */
export function defaultPolicies(deps: {
  dispatch: Dispatch;
  sessions: SessionsRepository;
}): SocketPolicies {
  return {
    federated: jobQueuePolicy(['federated'], deps),
    exceptions: deskLessExceptionsPolicy(deps),
    priority: jobQueuePolicy(['priority'], deps),
  };
}
