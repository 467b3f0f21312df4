import type {
  AnswerRequestBody,
  AnsweredEvent,
  AssistantRequestView,
  ConversationMemory,
} from '@loopdesk/contracts/quinn.ts';
import { INTENT_CODES } from '@loopdesk/contracts/category-menus.ts';
import type {
  IntentContextMenu,
  IntentSubmission,
} from '@loopdesk/contracts/workbench-payloads.ts';
import type { IntegrationClient } from './client.ts';

/**
 * The demo assistant's answers to the portal's questions (spec 1 §7): intent context menus, a
 * conversation's memory, and the message operations. Loopdesk hands each question over
 * `GET /api/v1/requests` (long-polled) and waits for `POST /api/v1/requests/{id}/answer`.
 */

/** The demo's context menus: each replaces the HPI categories for its intent. */
export const CONTEXT_MENUS: Readonly<Record<string, IntentContextMenu>> = {
  hpi: {
    menu: {
      chief_complaints: null,
      current_complaint: null,
      patient_description: null,
      onset: null,
      sx: null,
      associated_sx: null,
      Details: ['location', 'character', 'severity', 'timing', 'duration'],
    },
    derived: ['patient_description'],
  },
  repeat_prescription: {
    menu: { medication: null, Prescription: ['dose', 'frequency', 'pharmacy'] },
    derived: ['medication'],
  },
  book_appointment: {
    menu: { Appointment: ['appointment_reason', 'appointment_time'] },
    derived: ['appointment_reason'],
  },
};

/** What the demo remembers of each conversation: extracts by slot code (conversation.ts). */
export type Memories = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** The intent a message is about: the first whose code contains '+', else the first (spec 1 §5). */
function agendaOf(submission: IntentSubmission): string | undefined {
  const intents = submission.entities
    .map((entity) => entity.category)
    .filter((category) => category === 'intent' || INTENT_CODES.includes(category));
  return intents.find((intent) => intent.includes('+')) ?? intents[0];
}

/** The answer to one question, or why there is none. */
export function answerRequest(
  request: AssistantRequestView,
  memories: Memories,
): AnswerRequestBody {
  const body = request.body;
  switch (request.kind) {
    case 'intent.context_menu': {
      const intent = String(body.intent);
      const menu = CONTEXT_MENUS[intent];
      return menu
        ? { answer: menu }
        : { error: `no context menu for the intent '${intent}'`, reason: 'not_found' };
    }
    case 'conversation.memory': {
      const conversationId = String(body.conversationId);
      const slots = memories.get(conversationId);
      if (!slots) {
        return {
          error: `no conversation ${conversationId} in this assistant's memory`,
          reason: 'not_found',
        };
      }
      const answer: ConversationMemory = { conversationId, slots: { ...slots } };
      return { answer };
    }
    case 'message.intents': {
      const submission = body as unknown as IntentSubmission;
      const agenda = agendaOf(submission);
      if (agenda === undefined) {
        return { error: 'the message carries no intent annotation' };
      }
      // The classified message goes on as the annotation of the agenda intent.
      const answer: AnsweredEvent = {
        type: 'message.annotation',
        data: {
          action: agenda,
          ...submission.message,
          entities: submission.entities,
          slot: { id: '', type: 'intent', code: 'intent', value: agenda },
        },
      };
      return { answer };
    }
    case 'message.next':
    case 'message.redirect': {
      const answer: AnsweredEvent = {
        type: 'dh.portal.hitl.event',
        data: { action: request.kind === 'message.next' ? 'next' : 'redirect', ...body },
      };
      return { answer };
    }
  }
}

/** Reads the portal's questions and answers each, until `signal` aborts. */
export async function followRequests(
  client: IntegrationClient,
  memories: Memories,
  options: { waitSeconds: number; signal: AbortSignal; onError(error: unknown): void },
): Promise<void> {
  while (!options.signal.aborted) {
    try {
      const { requests } = await client.requests(options.waitSeconds);
      for (const request of requests) {
        await client.answer(request.id, answerRequest(request, memories));
      }
    } catch (error) {
      options.onError(error);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
