import { randomUUID } from 'node:crypto';
import type { JobView, OutboxEvent } from '@loopdesk/contracts/integration.ts';
import type { IntegrationClient } from './client.ts';
import type { Phase } from './patient-rotation.ts';
import type { Memory, PatientScript } from './patient-script.ts';
import type { FinishedIntake } from './summaries.ts';
import {
  emrReference,
  record,
  recordDerived,
  runHandover,
  type ConversationContext,
  type ConversationInbox,
} from './handover.ts';

/** What the assistant remembers of each conversation: extracts by slot code. */
export const MEMORIES = new Map<string, Readonly<Record<string, string>>>();

/** Waits for outcomes of jobs, fed by the event feed. */
export class Outcomes {
  readonly #waiters = new Map<string, (job: JobView) => void>();
  readonly #early = new Map<string, JobView>();

  wait(jobId: string): Promise<JobView> {
    const early = this.#early.get(jobId);
    if (early) {
      this.#early.delete(jobId);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => this.#waiters.set(jobId, resolve));
  }

  /** Called for every finished job seen in the feed (completed, cancelled, dead). */
  settle(job: JobView): void {
    const waiter = this.#waiters.get(job.id);
    if (waiter) {
      this.#waiters.delete(job.id);
      waiter(job);
    } else if (this.#early.size < 10_000) {
      this.#early.set(job.id, job);
    }
  }

  get pending(): number {
    return this.#waiters.size;
  }
}

/** The first annotated extract of a completed annotation job, if any. */
export function firstExtract(job: JobView): string | undefined {
  const result = job.result as { data?: { entities?: { extract?: unknown }[] } } | null;
  const extract = result?.data?.entities?.[0]?.extract;
  return typeof extract === 'string' && extract.trim() ? extract.trim() : undefined;
}

/**
 * Runs one patient's intake: each step becomes a job; the technician's answer (the first
 * annotated extract) words the next questions. Returns the finished jobs in order.
 */
export async function runConversation(
  client: IntegrationClient,
  outcomes: Outcomes,
  script: PatientScript,
  log: (line: string) => void,
  options: {
    inbox?: ConversationInbox;
    replyDelayMs?: number;
    /** Told when the conversation goes to the desk and when it comes back to its intake. */
    onPhase?: (phase: Phase) => void;
    /** Told when the intake is finished, with what the technicians annotated (summaries.ts). */
    onFinished?: (intake: FinishedIntake) => Promise<void>;
  } = {},
): Promise<JobView[]> {
  const conversationId = randomUUID();
  const userId = `patient-${script.id}-${conversationId.slice(0, 8)}`;
  const extracts: Record<string, string> = {};
  MEMORIES.set(conversationId, extracts);
  const finished: JobView[] = [];
  // The transcript lives in Loopdesk too: the exception desk shows it (issue 5).
  const ctx: ConversationContext = {
    client,
    conversationId,
    userId,
    tenant: script.tenant,
    name: script.name,
    extracts,
    log,
  };
  await client.putConversation(conversationId, {
    tenant: script.tenant,
    botConversationId: `bot-${conversationId}`,
    consumer: {
      id: userId,
      name: script.name,
      externalReferences: [emrReference(script.tenant, userId)],
    },
  });
  /** The scripted handover, if it comes before this step; false when the conversation ended. */
  const handOver = async (index: number): Promise<boolean> => {
    if (script.handover?.atStep !== index || !options.inbox) {
      return true;
    }
    options.onPhase?.('desk');
    const outcome = await runHandover(ctx, script.handover, {
      inbox: options.inbox,
      outcome: (jobId) => outcomes.wait(jobId),
      replyDelayMs: options.replyDelayMs ?? 1500,
    });
    options.onPhase?.('intake');
    return outcome === 'handed-back';
  };
  let lastSaid: string | undefined;
  for (const [index, step] of script.steps.entries()) {
    if (!(await handOver(index))) {
      options.inbox?.forget(conversationId);
      return finished;
    }
    const memory: Memory = { extracts };
    const messageId = `${conversationId}-m${index + 1}`;
    const built = step.build(memory);
    const question = (built.quinnLastTurn as { content?: unknown } | undefined)?.content;
    const said = (built.lastTurn as { content?: unknown } | undefined)?.content;
    // A step that works again on the same exchange (reword, normalise) adds nothing to it.
    if (typeof said !== 'string' || said !== lastSaid) {
      if (typeof question === 'string') {
        await record(ctx, `${conversationId}-q${index + 1}`, 'OUT', question);
      }
      if (typeof said === 'string') {
        await record(ctx, messageId, 'IN', said);
        lastSaid = said;
      }
    }
    const lastTurn = built.lastTurn as Record<string, unknown> | undefined;
    const data = {
      ...built,
      ...(lastTurn
        ? {
            lastTurn: {
              ...lastTurn,
              _id: messageId,
              messageId,
              userId,
              tenant: script.tenant,
              // The script's own annotations (language services) ride along.
              metadata: {
                conversationId,
                entities:
                  (lastTurn.metadata as { entities?: unknown[] } | undefined)?.entities ?? [],
              },
            },
          }
        : {}),
      patient: { name: script.name },
      metadata: {
        ...(built.metadata as Record<string, unknown> | undefined),
        xdhtenantid: script.tenant,
        xdhconvid: conversationId,
        xdhmessageid: messageId,
        xdhuserid: userId,
        xdhintslotcode: (built.slot as { code?: string } | undefined)?.code ?? '',
      },
    };
    const job = await client.createJob(
      {
        queue: step.queue,
        type: step.type,
        tenant: script.tenant,
        ...(step.priority === undefined ? {} : { priority: step.priority }),
        data,
      },
      `${conversationId}:${index}`,
    );
    log(`${script.name.given} ${script.name.family}: ${step.name} → job ${job.id} (${step.queue})`);
    const outcome = await outcomes.wait(job.id);
    finished.push(outcome);
    if (outcome.state !== 'completed') {
      log(
        `${script.name.given} ${script.name.family}: ${step.name} ended ${outcome.state}; conversation stops`,
      );
      return finished;
    }
    const rephrased = outcome.result as {
      type?: string;
      data?: { message?: unknown; action?: unknown };
    } | null;
    if (rephrased?.type === 'message.rephrase.question') {
      log(
        `${script.name.given} ${script.name.family}: ${step.name} rephrased as "${String(rephrased.data?.message)}"`,
      );
    }
    if (rephrased?.data?.action === 'suggest_forget') {
      log(`${script.name.given} ${script.name.family}: ${step.name} forgotten (custom exception)`);
    }
    const slotCode = (built.slot as { code?: string } | undefined)?.code;
    const extract = firstExtract(outcome);
    if (slotCode && extract) {
      extracts[slotCode] = extract;
    }
    if (typeof said === 'string' && said === lastSaid) {
      await recordDerived(ctx, messageId, outcome);
    }
  }
  if (!(await handOver(script.steps.length))) {
    options.inbox?.forget(conversationId);
    return finished;
  }
  options.inbox?.forget(conversationId);
  log(`${script.name.given} ${script.name.family}: intake finished`);
  const intake = { conversationId, tenant: script.tenant, name: script.name, extracts };
  await options.onFinished?.(intake);
  return finished;
}

/** Follows the outbox feed from its current end, settling outcomes. */
export async function followFeed(
  client: IntegrationClient,
  outcomes: Outcomes,
  options: {
    pollMs: number;
    signal: AbortSignal;
    onError(error: unknown): void;
    /** Where conversation.* events (manual replies, handbacks, ends) go. */
    inbox?: ConversationInbox;
    /** Hears of every finished job too (the clinical notes reviewers send, summaries.ts). */
    onSettled?: (job: JobView) => void;
    /** Hears every event too (messaging.ts). */
    onEvent?(event: OutboxEvent): void;
  },
): Promise<void> {
  // Start at the end: old events belong to earlier runs.
  let cursor: string | undefined;
  for (;;) {
    const page = await client.events(cursor, 500);
    cursor = page.nextCursor;
    if (page.events.length < 500) {
      break;
    }
  }
  while (!options.signal.aborted) {
    try {
      const page = await client.events(cursor, 500);
      cursor = page.nextCursor;
      for (const event of page.events) {
        options.onEvent?.(event);
        if (
          event.type === 'job.completed' ||
          event.type === 'job.cancelled' ||
          event.type === 'job.dead'
        ) {
          outcomes.settle(event.data.job as JobView);
          options.onSettled?.(event.data.job as JobView);
        } else if (event.type.startsWith('conversation.')) {
          options.inbox?.push(event);
        }
      }
      if (page.events.length === 500) {
        continue;
      }
    } catch (error) {
      options.onError(error);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
