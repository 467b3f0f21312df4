import type { CreateJobBody, EventFeed, JobView } from '@loopdesk/contracts/integration.ts';
import type { AnswerRequestBody, RequestList } from '@loopdesk/contracts/quinn.ts';
import type {
  AppendMessageBody,
  ConversationMessage,
  ConversationView,
  HandoverBody,
  PutConfigurationBody,
  PutConversationBody,
} from '@loopdesk/contracts/conversations.ts';
import type { PutPhysicianBody } from '@loopdesk/contracts/scheduling.ts';

/** One call of the integration API: JSON in and out, an error for any non-2xx answer. */
export function createApiCaller(baseUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch) {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<T> {
    const response = await fetchImpl(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...extra },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    }
    return JSON.parse(text) as T;
  }
  return call;
}

export type ApiCaller = ReturnType<typeof createApiCaller>;

/** The assistant's only door into Loopdesk: the integration API over HTTP. */
export function createIntegrationClient(
  baseUrl: string,
  apiKey: string,
  fetchImpl: typeof fetch = fetch,
) {
  const call = createApiCaller(baseUrl, apiKey, fetchImpl);
  return {
    /** Creates a job; the idempotency key makes a retry safe. */
    createJob(job: CreateJobBody, idempotencyKey: string): Promise<JobView> {
      return call<JobView>('POST', '/api/v1/jobs', job, { 'idempotency-key': idempotencyKey });
    },
    /** Reads the outbox feed after a cursor. */
    events(after: string | undefined, limit = 100): Promise<EventFeed> {
      const query = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}) });
      return call<EventFeed>('GET', `/api/v1/events?${query.toString()}`);
    },
    /** Registers a conversation and its patient (a safe retry). */
    putConversation(id: string, body: PutConversationBody): Promise<ConversationView> {
      return call<ConversationView>('PUT', `/api/v1/conversations/${encodeURIComponent(id)}`, body);
    },
    /** Appends the patient's (IN) or the assistant's (OUT) message; the same id again is a retry. */
    appendMessage(conversationId: string, body: AppendMessageBody): Promise<ConversationMessage> {
      return call<ConversationMessage>(
        'POST',
        `/api/v1/conversations/${encodeURIComponent(conversationId)}/messages`,
        body,
      );
    },
    /** Hands the conversation to humans; the assistant stays silent until it comes back. */
    handover(conversationId: string, body: HandoverBody): Promise<ConversationView> {
      return call<ConversationView>(
        'POST',
        `/api/v1/conversations/${encodeURIComponent(conversationId)}/handover`,
        body,
      );
    },
    putPhysician(id: string, body: PutPhysicianBody): Promise<unknown> {
      return call<unknown>('PUT', `/api/v1/physicians/${encodeURIComponent(id)}`, body);
    },
    putConfiguration(id: string, body: PutConfigurationBody): Promise<unknown> {
      return call<unknown>('PUT', `/api/v1/configurations/${encodeURIComponent(id)}`, body);
    },
    /** The portal's pending questions, waiting up to `wait` seconds for one (long poll). */
    requests(wait: number, limit = 20): Promise<RequestList> {
      const query = new URLSearchParams({ wait: String(wait), limit: String(limit) });
      return call<RequestList>('GET', `/api/v1/requests?${query.toString()}`);
    },
    /** Answers a question of the portal, or says why there is no answer. */
    answer(id: string, body: AnswerRequestBody): Promise<unknown> {
      return call<unknown>('POST', `/api/v1/requests/${id}/answer`, body);
    },
  };
}

export type IntegrationClient = ReturnType<typeof createIntegrationClient>;
