import type {
  AppendMessageBody,
  ConversationMessage,
  ConversationView,
} from '@loopdesk/contracts/conversations.ts';
import type { IntegrationClient } from './client.ts';

type TranscriptCalls = Pick<
  IntegrationClient,
  'putConversation' | 'appendMessage' | 'handover' | 'putPhysician' | 'putConfiguration'
>;

/**
 * The conversation calls of a fake Loopdesk for the assistant's tests: it keeps the transcript
 * and, like the real one, refuses the assistant's messages while humans hold the conversation.
 */
export function fakeTranscript(
  transcript: AppendMessageBody[],
  handedOver: Set<string> = new Set(),
): TranscriptCalls {
  const view = (id: string): ConversationView => ({
    id,
    tenant: 'acme-clinic',
    botConversationId: null,
    userId: 'patient',
    holder: handedOver.has(id)
      ? { kind: 'queue', queue: 'exceptions', queuedAt: new Date().toISOString() }
      : { kind: 'bot' },
    status: 'open',
    endType: null,
    handoverReason: null,
    messages: transcript.length,
    createdOn: new Date().toISOString(),
  });
  return {
    putConversation: (id) => Promise.resolve(view(id)),
    appendMessage(conversationId, body) {
      if (body.direction === 'OUT' && handedOver.has(conversationId)) {
        return Promise.reject(new Error('409: the assistant stays silent until it is handed back'));
      }
      transcript.push(body);
      const message: ConversationMessage = {
        id: body.id,
        conversationId,
        direction: body.direction,
        content: body.content,
        createdOn: new Date().toISOString(),
        author: { kind: body.direction === 'IN' ? 'patient' : 'assistant', id: 'x', name: 'x' },
        metadata: { entities: body.metadata?.entities ?? [] },
        translation: null,
        replyTo: null,
        replyType: null,
      };
      return Promise.resolve(message);
    },
    handover(id) {
      handedOver.add(id);
      return Promise.resolve(view(id));
    },
    putPhysician: () => Promise.resolve({}),
    putConfiguration: () => Promise.resolve({}),
  };
}
