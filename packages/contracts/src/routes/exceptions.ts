import { any, type ApiRoute } from './api-route.ts';
import { ERROR_RESPONSES } from '../errors.ts';
import {
  ConversationIdParams,
  ConversationMessage,
  TenantConfiguration,
  TenantHeaders,
} from '../conversations.ts';
import { DequeuedConversation, QueuedConversations, RespondBody } from '../exceptions.ts';

/** The `/internal` routes of the exceptions area. */
export const EXCEPTIONS_ROUTES = [
  {
    method: 'POST',
    path: '/internal/conversations/:id/_respond',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    patientData: 'write',
    spec: '1 §7, 2 §7',
    params: ConversationIdParams,
    body: RespondBody,
    response: { 201: ConversationMessage, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/conversations/_queued',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    patientData: 'read',
    spec: '2 §7',
    response: { 200: QueuedConversations, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/conversations/_dequeue',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    patientData: 'read',
    spec: '2 §7',
    response: { 200: DequeuedConversation, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/configurations/:id',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    patientData: 'none',
    spec: '2 §7',
    params: ConversationIdParams,
    headers: TenantHeaders,
    response: { 200: TenantConfiguration, ...ERROR_RESPONSES },
  },
] as const satisfies readonly ApiRoute[];
