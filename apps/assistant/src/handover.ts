import type {
  ExceptionQueue,
  MessageDirection,
  MessageEntity,
} from '@loopdesk/contracts/conversations.ts';
import type { JobView, OutboxEvent } from '@loopdesk/contracts/integration.ts';
import type { IntegrationClient } from './client.ts';

/**
 * The assistant's side of the exception desk (issue 5): it keeps each conversation's transcript
 * in Loopdesk, hands a conversation to humans when a patient asks for one or goes off-script,
 * stays silent while a human holds it, lets the simulated patient answer the human's replies, and
 * resumes after the handback (or closes the conversation after an end).
 */

/** A scripted moment where the assistant cannot go on and hands the conversation over. */
export interface HandoverScript {
  /** The step before which it happens (0: right at the start). */
  readonly atStep: number;
  /** The assistant's question just before (OUT). */
  readonly question: string;
  /** The patient's answer the assistant cannot handle (IN). */
  readonly trigger: string;
  /** The assistant's last words before it falls silent (OUT). */
  readonly botSays: string;
  readonly reason: string;
  readonly queue?: ExceptionQueue;
  /** What the simulated patient answers to each of the human's replies, in turn. */
  readonly replies: readonly string[];
  /** The slot the exception tasks ask the reviewer to annotate in each patient message. */
  readonly taskSlot: { readonly code: string; readonly description: string };
}

/**
 * The task on the exception slot `complete` (spec 2 §5), sent once the patient's scripted replies
 * have all been given: the reviewer ticks its box when the exception is dealt with.
 */
export const COMPLETE_TASK = { code: 'complete', description: 'Exception complete' } as const;

/** What the patient says once the scripted replies run out. */
export const FALLBACK_REPLY = 'Okay, thank you.';
/** The assistant's first words after a handback. */
export const RESUME_MESSAGE =
  'Thank you for waiting. Let me ask a few more questions so the doctor has the full picture.';

/** Conversation events of the outbox feed, queued per conversation for whoever runs it. */
export class ConversationInbox {
  readonly #queued = new Map<string, OutboxEvent[]>();
  readonly #waiters = new Map<string, (event: OutboxEvent) => void>();

  push(event: OutboxEvent): void {
    const id = event.conversationId;
    if (!id) {
      return;
    }
    const waiter = this.#waiters.get(id);
    if (waiter) {
      this.#waiters.delete(id);
      waiter(event);
      return;
    }
    const queued = this.#queued.get(id) ?? [];
    if (queued.length < 1000) {
      queued.push(event);
      this.#queued.set(id, queued);
    }
  }

  /** The conversation's next event, in feed order. */
  next(conversationId: string): Promise<OutboxEvent> {
    const queued = this.#queued.get(conversationId);
    const first = queued?.shift();
    if (first) {
      return Promise.resolve(first);
    }
    return new Promise((resolve) => this.#waiters.set(conversationId, resolve));
  }

  forget(conversationId: string): void {
    this.#queued.delete(conversationId);
    this.#waiters.delete(conversationId);
  }
}

/** One conversation as the assistant runs it. */
export interface ConversationContext {
  readonly client: IntegrationClient;
  readonly conversationId: string;
  readonly userId: string;
  readonly tenant: string;
  readonly name: { readonly given: string; readonly family: string };
  /** Extracts the humans annotated, by slot code: the next questions are worded with them. */
  readonly extracts: Record<string, string>;
  readonly log: (line: string) => void;
}

/** Appends a message to the conversation's transcript (a retry with the same id is safe). */
export async function record(
  ctx: ConversationContext,
  id: string,
  direction: MessageDirection,
  content: string,
  entities?: readonly MessageEntity[],
): Promise<void> {
  await ctx.client.appendMessage(ctx.conversationId, {
    id,
    direction,
    content,
    ...(entities && entities.length > 0 ? { metadata: { entities: [...entities] } } : {}),
  });
}

/** The annotated entities of a completed job, as the transcript's metadata holds them. */
export function resultEntities(job: JobView): MessageEntity[] {
  const result = job.result as { data?: { entities?: unknown } } | null;
  const entities = result?.data?.entities;
  if (!Array.isArray(entities)) {
    return [];
  }
  return entities.filter(
    (e): e is MessageEntity =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as { extract?: unknown }).extract === 'string' &&
      typeof (e as { category?: unknown }).category === 'string',
  );
}

/**
 * A derived message: what was understood from a patient message, kept in the transcript with an
 * id ending in -DER (the desk hides those unless an entity is focused).
 */
export async function recordDerived(
  ctx: ConversationContext,
  messageId: string,
  job: JobView,
): Promise<void> {
  const entities = resultEntities(job);
  if (entities.length === 0) {
    return;
  }
  const content = entities.map((e) => `${e.extract} → ${e.category}`).join('; ');
  await record(ctx, `${messageId}-DER`, 'IN', content, entities);
}

/** The assistant's closing words after a reviewer ended the conversation. */
export function closingMessage(data: Record<string, unknown>): string {
  const appointment = data.appointment as
    | {
        fromDateTime?: string;
        timezone?: string;
        staff?: { firstName?: string; lastName?: string };
      }
    | null
    | undefined;
  if (data.endType === 'TERMINATE') {
    return 'Our clinical team has closed this conversation. If you need help, call the clinic.';
  }
  if (appointment?.fromDateTime) {
    const when = appointment.fromDateTime.replace('T', ' at ');
    const who = appointment.staff
      ? ` with Dr ${appointment.staff.firstName ?? ''} ${appointment.staff.lastName ?? ''}`.trimEnd()
      : '';
    return `Your appointment${who} is booked for ${when} (${appointment.timezone ?? ''}). Take care.`;
  }
  return 'Thank you. This conversation is now closed.';
}

/** How the human part of a conversation ended. */
export type HandoverOutcome = 'handed-back' | 'ended';

/**
 * Hands the conversation to humans and follows it until a reviewer hands it back or ends it:
 * the assistant writes nothing meanwhile; the simulated patient answers each manual reply, and
 * each patient message becomes an exception task for the reviewer holding the conversation.
 */
export async function runHandover(
  ctx: ConversationContext,
  handover: HandoverScript,
  deps: {
    inbox: ConversationInbox;
    /** Settles when the job finishes (completed, cancelled or dead). */
    outcome(jobId: string): Promise<JobView>;
    replyDelayMs: number;
  },
): Promise<HandoverOutcome> {
  const { client, conversationId: id } = ctx;
  const who = `${ctx.name.given} ${ctx.name.family}`;
  const queue = handover.queue ?? 'exceptions';

  /**
   * An exception task for the reviewer holding it: annotate what the patient just said on the
   * script's slot, or (`complete`) confirm that the exception is dealt with, which only ticking
   * its box completes (spec 2 §5).
   */
  const task = async (
    messageId: string,
    content: string,
    lastQuestion: string,
    kind: 'annotate' | 'complete' = 'annotate',
  ) => {
    const slot =
      kind === 'complete'
        ? { code: COMPLETE_TASK.code, description: COMPLETE_TASK.description, type: 'boolean' }
        : { ...handover.taskSlot, type: 'text' };
    try {
      const job = await client.createJob(
        {
          queue,
          type: 'exception.job',
          tenant: ctx.tenant,
          data: {
            conversationId: id,
            quinnLastTurn: { content: lastQuestion },
            lastTurn: {
              content,
              _id: messageId,
              messageId,
              userId: ctx.userId,
              tenant: ctx.tenant,
              metadata: { conversationId: id, entities: [] },
            },
            slotSpecification: {
              code: slot.code,
              short_description: slot.description,
              data_type: slot.type,
              ...(kind === 'annotate' ? { multiplicity: '0..*' } : {}),
            },
            slot: { id: `slot-${slot.code}`, code: slot.code },
            job: { purpose: 'full' },
            patient: { name: ctx.name },
            metadata: {
              xdhtenantid: ctx.tenant,
              xdhconvid: id,
              xdhmessageid: messageId,
              xdhuserid: ctx.userId,
              xdhintslotcode: slot.code,
            },
          },
        },
        kind === 'complete' ? `${id}:complete:${messageId}` : `${id}:task:${messageId}`,
      );
      void deps.outcome(job.id).then(async (done) => {
        if (kind === 'complete') {
          if (done.state === 'completed') {
            ctx.log(`${who}: the clinician marked the exception complete`);
          }
          return;
        }
        const extract = resultEntities(done)[0]?.extract;
        if (done.state === 'completed' && extract) {
          ctx.extracts[handover.taskSlot.code] = extract;
          await recordDerived(ctx, messageId, done).catch(() => undefined);
        }
      });
    } catch (error) {
      // The conversation may have been handed back or ended meanwhile: the task is not needed.
      ctx.log(`${who}: no exception task for ${messageId}: ${String(error)}`);
    }
  };

  await record(ctx, `${id}-h-q`, 'OUT', handover.question);
  await record(ctx, `${id}-h-p0`, 'IN', handover.trigger);
  await record(ctx, `${id}-h-bot`, 'OUT', handover.botSays);
  await client.handover(id, { reason: handover.reason, queue });
  ctx.log(`${who}: handed over to humans (${handover.reason})`);
  await task(`${id}-h-p0`, handover.trigger, handover.question);

  let answered = 0;
  for (;;) {
    const event = await deps.inbox.next(id);
    if (event.type === 'conversation.handedback') {
      ctx.log(`${who}: handed back; the assistant resumes`);
      await record(ctx, `${id}-h-resume`, 'OUT', RESUME_MESSAGE);
      return 'handed-back';
    }
    if (event.type === 'conversation.ended') {
      ctx.log(`${who}: ended by the clinician (${String(event.data.endType)})`);
      await record(ctx, `${id}-h-close`, 'OUT', closingMessage(event.data));
      return 'ended';
    }
    if (event.type === 'conversation.reply') {
      const reply = (event.data.message as { content?: string } | undefined)?.content ?? '';
      const answer = handover.replies[answered] ?? FALLBACK_REPLY;
      answered += 1;
      ctx.log(`${who}: the clinician wrote '${reply}'; the patient answers`);
      await new Promise((resolve) => setTimeout(resolve, deps.replyDelayMs));
      const messageId = `${id}-h-p${answered}`;
      await record(ctx, messageId, 'IN', answer);
      await task(messageId, answer, reply);
      if (answered === handover.replies.length) {
        // The patient has said what the script has to say: the reviewer confirms it is dealt with.
        await task(messageId, answer, reply, 'complete');
      }
    }
  }
}

/** The clinic directory the demo assistant keeps in Loopdesk: physicians and tenants. */
export async function registerDirectory(client: IntegrationClient): Promise<void> {
  const physicians = [
    { id: 'dr-iris-hale', firstName: 'Iris', lastName: 'Hale' },
    { id: 'dr-samuel-okoye', firstName: 'Samuel', lastName: 'Okoye' },
    { id: 'dr-mere-parata', firstName: 'Mere', lastName: 'Parata' },
  ];
  for (const { id, ...names } of physicians) {
    await client.putPhysician(id, { ...names, active: true });
  }
  await client.putConfiguration('acme-clinic', {
    tenant: 'acme-clinic',
    displayName: 'Acme Clinic',
    emr: { system: 'acme-emr', recordUrl: 'https://emr.acme-clinic.example/patients/{reference}' },
    timezone: 'America/Los_Angeles',
  });
  await client.putConfiguration('harbour-health', {
    tenant: 'harbour-health',
    displayName: 'Harbour Health',
    emr: {
      system: 'harbour-emr',
      recordUrl: 'https://records.harbour-health.example/p/{reference}',
    },
    timezone: 'Pacific/Auckland',
  });
}

/** The EMR reference of a demo patient, in the system its tenant's configuration links to. */
export function emrReference(tenant: string, userId: string) {
  return { system: tenant === 'harbour-health' ? 'harbour-emr' : 'acme-emr', reference: userId };
}
