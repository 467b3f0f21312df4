import { queryOptions } from '@tanstack/react-query';
import {
  ConversationMemory,
  ConversationReads,
  ConversationSearchResult,
  CurrentClinicalSummary,
  DemoConversationList,
  type ConversationSearchQuery,
} from '@loopdesk/contracts/conversation-insights.ts';
import { MESSAGES_MAX_PAGE_SIZE, MessagesPage } from '@loopdesk/contracts/conversations.ts';
import {
  ConversationDifferentialResponse,
  InferenceRecordList,
  RelationshipList,
} from '@loopdesk/contracts/intelligence.ts';
import { EntityExtractionResult, NLP_CONTENT_TYPE } from '@loopdesk/contracts/nlp.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** The conversation view polls its messages, differential and memory every 5 s (spec 3 §7, §9). */
export const CONVERSATION_POLL_MS = 5000;

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** `GET /internal/intelligence/demo/conversations` (spec 3 §7): the dropdown's conversations. */
export const demoConversationsQueryOptions = () =>
  queryOptions({
    queryKey: ['conversations', 'demo'],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/intelligence/demo/conversations', {
        schema: DemoConversationList,
        ...withSignal(signal),
      }),
    // Refresh asks again; nothing else reloads the list under the user.
    staleTime: Infinity,
    retry: false,
  });

/** `GET /internal/conversations/_search` (issue 14). */
export const searchQueryOptions = (query: Partial<ConversationSearchQuery> | null) =>
  queryOptions({
    queryKey: ['conversations', 'search', query],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/conversations/_search', {
        query: query ?? {},
        schema: ConversationSearchResult,
        ...withSignal(signal),
      }),
    enabled: query !== null,
    retry: false,
  });

/** Conditions, observations and relationships (spec 3 §7), loaded once on the landing page. */
export const recordsQueryOptions = (kind: 'conditions' | 'observations') =>
  queryOptions({
    queryKey: ['conversations', 'records', kind],
    queryFn: ({ signal }) =>
      callRoute('GET', `/internal/intelligence/clinical_inference/${kind}`, {
        query: { metadata: true },
        schema: InferenceRecordList,
        ...withSignal(signal),
      }),
    staleTime: Infinity,
    retry: false,
  });

export const relationshipsQueryOptions = () =>
  queryOptions({
    queryKey: ['conversations', 'relationships'],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/intelligence/ontology/models/relationships', {
        query: { metadata: true },
        schema: RelationshipList,
        ...withSignal(signal),
      }),
    staleTime: Infinity,
    retry: false,
  });

interface Conversation {
  id: string;
  tenant: string | undefined;
}

const tenantOption = (tenant: string | undefined) => (tenant ? { tenantId: tenant } : {});

/** The transcript: the newest 100 messages, oldest first, polled every 5 s. */
export const messagesQueryOptions = ({ id, tenant }: Conversation) =>
  queryOptions({
    queryKey: ['conversations', id, 'messages'],
    queryFn: async ({ signal }) => {
      const page = await callRoute('GET', '/internal/conversations/:id/messages', {
        params: { id },
        query: { order: '-createdOn', s: MESSAGES_MAX_PAGE_SIZE, p: 0 },
        schema: MessagesPage,
        ...tenantOption(tenant),
        ...withSignal(signal),
      });
      return { ...page, items: [...page.items].reverse() };
    },
    refetchInterval: CONVERSATION_POLL_MS,
    retry: false,
  });

export const memoryQueryOptions = ({ id, tenant }: Conversation) =>
  queryOptions({
    queryKey: ['conversations', id, 'memory'],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/conversations/:id/memory', {
        params: { id },
        query: { s: 1000, p: 0 },
        schema: ConversationMemory,
        ...tenantOption(tenant),
        ...withSignal(signal),
      }),
    refetchInterval: CONVERSATION_POLL_MS,
    retry: false,
  });

export const differentialQueryOptions = ({ id, tenant }: Conversation) =>
  queryOptions({
    queryKey: ['conversations', id, 'differential'],
    queryFn: ({ signal }) =>
      callRoute(
        'GET',
        '/internal/intelligence/conversations/:id/clinical_inference/differential_diagnosis',
        {
          params: { id },
          schema: ConversationDifferentialResponse,
          ...tenantOption(tenant),
          ...withSignal(signal),
        },
      ),
    refetchInterval: CONVERSATION_POLL_MS,
    retry: false,
  });

/** The current clinical summary (spec 3 §7 "with X-Tenant-ID"), read when the dialog opens. */
export const summaryQueryOptions = ({ id, tenant }: Conversation, enabled: boolean) =>
  queryOptions({
    queryKey: ['conversations', id, 'summary'],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/intelligence/conversations/:id/clinical_summaries/_current', {
        params: { id },
        schema: CurrentClinicalSummary,
        ...tenantOption(tenant),
        ...withSignal(signal),
      }),
    enabled: enabled && tenant !== undefined,
    retry: false,
  });

export const readsQueryOptions = ({ id, tenant }: Conversation, enabled: boolean) =>
  queryOptions({
    queryKey: ['conversations', id, 'reads'],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/conversations/:id/_reads', {
        params: { id },
        schema: ConversationReads,
        ...tenantOption(tenant),
        ...withSignal(signal),
      }),
    enabled,
    retry: false,
  });

/** Salient features: the text evaluation of what the patient said (spec 3 §7). */
export const salientQueryOptions = (id: string, text: string) =>
  queryOptions({
    queryKey: ['conversations', id, 'salient', text],
    queryFn: ({ signal }) =>
      callRoute('POST', '/internal/nlp/evaluate', {
        body: { text },
        headers: { Accept: NLP_CONTENT_TYPE },
        schema: EntityExtractionResult,
        ...withSignal(signal),
      }),
    enabled: text.trim().length > 0,
    staleTime: Infinity,
    retry: false,
  });
