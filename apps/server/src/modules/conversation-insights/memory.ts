import { isDeepStrictEqual } from 'node:util';
import { isDerivedMessageId } from '@loopdesk/contracts/conversations.ts';
import type { Database } from '../../platform/db/database.ts';
import type { ConversationRow, ConsumerRow } from '../conversations/repository.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import { MemoryDraft, entitiesOf, type Clinical, type Vertex } from './projection.ts';
import type { InsightsRepository } from './repository.ts';

/** Where the conversation stands, kept on the patient's vertex. */
function statusData(conversation: ConversationRow): Record<string, unknown> {
  return {
    status: conversation.status,
    holder:
      conversation.holder === 'bot'
        ? 'assistant'
        : conversation.holder === 'queue'
          ? 'queue'
          : 'reviewer',
    ...(conversation.end_type ? { endType: conversation.end_type } : {}),
  };
}

const nameOf = (consumer: ConsumerRow | undefined, fallback: string) =>
  consumer ? `${consumer.given_name} ${consumer.family_name}`.trim() : fallback;

/** The slot an annotation job answered, and the question it was about. */
function slotOf(
  payload: Record<string, unknown> | null,
): { code: string; question: string | null } | null {
  const slot = payload?.slot as { code?: unknown } | undefined;
  const spec = payload?.slotSpecification as
    { code?: unknown; short_description?: unknown } | undefined;
  const code =
    typeof slot?.code === 'string' ? slot.code : typeof spec?.code === 'string' ? spec.code : null;
  if (!code) {
    return null;
  }
  return {
    code,
    question: typeof spec?.short_description === 'string' ? spec.short_description : null,
  };
}

/** The message a job was about. */
function messageOf(payload: Record<string, unknown> | null): string | null {
  const metadata = payload?.metadata as { xdhmessageid?: unknown } | undefined;
  const id = metadata?.xdhmessageid ?? payload?.messageId;
  return typeof id === 'string' ? id : null;
}

/**
 * Keeps each conversation's memory graph (issue 14): `refresh` takes in, under the memory's row
 * lock, whatever has arrived since it last ran — new transcript messages, completed jobs of the
 * conversation (technicians' annotations), the assistant's memory answers, the handover and the
 * conversation's status — and stores the graph. It runs after every message and handover, after
 * the assistant answers `POST …/_memory`, and before every read, so a missed signal only delays.
 */
export function createMemoryKeeper(deps: {
  db: Database;
  repo: InsightsRepository;
  clinical: () => Clinical;
}) {
  const { db, repo } = deps;
  const conversations = createConversationsRepository(db);

  async function refresh(conversationId: string): Promise<void> {
    // A large knowledge base's recogniser is built in the background (issue 22): wait for it
    // before the transaction rather than finish its build on the event loop inside one (a failed
    // build is logged by the knowledge module; recognising then fails).
    await deps.clinical().recogniser.ready.catch(() => undefined);
    await db.transaction().execute(async (trx) => {
      const conversation = await conversations.findConversation(conversationId, trx);
      if (!conversation) {
        return;
      }
      const state = await repo.lockState(trx, conversationId);
      const before = await repo.vertices(conversationId, trx);
      const stored = before.map(({ updatedAt: _updatedAt, ...vertex }) => vertex);
      const draft = new MemoryDraft(stored, deps.clinical());
      const consumer = await conversations.findConsumer(conversation.consumer_id, trx);
      draft.patient(
        nameOf(consumer, conversation.consumer_id),
        conversation.consumer_id,
        statusData(conversation),
      );

      const messages = await repo.messagesAfter(trx, conversationId, state.message_position);
      for (const message of messages) {
        const entities = entitiesOf(message.metadata.entities);
        if (entities.length > 0) {
          draft.entities(
            entities,
            message.author_kind === 'reviewer' ? 'reviewer' : 'assistant',
            message.id,
          );
        }
        if (
          message.direction === 'IN' &&
          message.author_kind === 'patient' &&
          !isDerivedMessageId(message.id)
        ) {
          draft.text(message.content, 'patient', message.id);
        }
      }

      const applied: string[] = [];
      for (const job of await repo.unappliedJobs(trx, conversationId)) {
        applied.push(`job:${job.id}`);
        const data = job.result?.data ?? {};
        const entities = entitiesOf(data.entities);
        const ids = draft.entities(entities, 'technician', messageOf(job.payload));
        const slot = slotOf(job.payload);
        const value =
          entities.find((e) => e.category === slot?.code)?.extract ??
          entities[0]?.extract ??
          (typeof (data.slot as { value?: unknown } | undefined)?.value === 'string'
            ? (data.slot as { value: string }).value
            : undefined);
        if (slot && value && value !== '__skipped__') {
          draft.answer(slot.code, slot.question, value.trim(), 'technician');
        } else if (ids.length === 0 && typeof data.message === 'string') {
          draft.text(data.message, 'technician', messageOf(job.payload));
        }
      }
      for (const request of await repo.unappliedMemoryAnswers(trx, conversationId)) {
        applied.push(`answer:${request.id}`);
        for (const [code, value] of Object.entries(request.answer?.slots ?? {})) {
          if (typeof value === 'string' && value.trim()) {
            draft.answer(code, null, value.trim(), 'assistant');
          }
        }
      }
      if (conversation.handover_reason) {
        draft.handover(conversation.handover_reason, conversation.queue);
      }
      draft.consider();

      const beforeById = new Map(stored.map((v) => [v.id, v]));
      const upsert: Vertex[] = [...draft.vertices.values()].filter(
        (v) => !isDeepStrictEqual(beforeById.get(v.id), v),
      );
      const remove = before.filter((v) => !draft.vertices.has(v.id)).map((v) => v.id);
      const lastPosition = messages.at(-1)?.position ?? state.message_position;
      if (
        upsert.length === 0 &&
        remove.length === 0 &&
        applied.length === 0 &&
        lastPosition === state.message_position
      ) {
        return;
      }
      await repo.markApplied(trx, conversationId, applied);
      await repo.save(trx, conversationId, {
        upsert,
        remove,
        edges: draft.edges(),
        position: lastPosition,
        changed: upsert.length > 0 || remove.length > 0,
      });
    });
  }

  return { refresh };
}

export type MemoryKeeper = ReturnType<typeof createMemoryKeeper>;
