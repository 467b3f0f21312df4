import { any, type ApiRoute } from './api-route.ts';
import { ERROR_RESPONSES } from '../errors.ts';
import {
  ConsumerQuery,
  ConsumerView,
  ConversationIdParams,
  MessagesPage,
  MessagesQuery,
  TenantHeaders,
} from '../conversations.ts';
import { ConversationDifferentialResponse } from '../intelligence.ts';
import {
  ClinicalSummary,
  ConversationMemory,
  DemoConversationList,
  MemoryQuery,
} from '../conversation-insights.ts';

/** The `/internal` routes of the conversations area. */
export const CONVERSATIONS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/conversations/:id/messages',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '2 §7, 3 §7',
    params: ConversationIdParams,
    query: MessagesQuery,
    headers: TenantHeaders,
    response: { 200: MessagesPage, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/conversations/:id/memory',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '2 §7, 3 §7',
    params: ConversationIdParams,
    query: MemoryQuery,
    response: { 200: ConversationMemory },
  },
  {
    method: 'GET',
    path: '/internal/consumers/:id',
    access: any('patient:data:read'),
    area: 'conversations',
    spec: '2 §7',
    params: ConversationIdParams,
    query: ConsumerQuery,
    headers: TenantHeaders,
    response: { 200: ConsumerView, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/intelligence/demo/conversations',
    access: any('patient:conversations:search'),
    area: 'conversations',
    spec: '3 §7',
    response: { 200: DemoConversationList },
  },
  {
    method: 'GET',
    path: '/internal/intelligence/conversations/:id/clinical_inference/differential_diagnosis',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '3 §7',
    params: ConversationIdParams,
    headers: TenantHeaders,
    response: { 200: ConversationDifferentialResponse },
  },
  {
    method: 'GET',
    path: '/internal/intelligence/conversations/:id/clinical_summaries/_current',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '3 §7',
    params: ConversationIdParams,
    response: { 200: ClinicalSummary },
  },
] as const satisfies readonly ApiRoute[];
