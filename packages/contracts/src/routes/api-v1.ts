import { NoBody, withApiKey, type ApiV1Route } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import {
  CreateJobBody,
  CreateJobHeaders,
  EventFeed,
  EventsQuery,
  JobIdParams,
  JobView,
} from '../integration.ts';
import {
  AppendMessageBody,
  ConversationIdParams,
  ConversationMessage,
  ConversationView,
  HandoverBody,
  PutConfigurationBody,
  PutConversationBody,
  TenantConfiguration,
} from '../conversations.ts';
import { PhysicianEntry, PhysicianIdParams, PutPhysicianBody } from '../scheduling.ts';
import {
  AnsweredRequestView,
  AnswerRequestBody,
  RequestIdParams,
  RequestList,
  RequestsQuery,
} from '../quinn.ts';
import {
  ConsumerIdParams,
  ConsumerRegistered,
  PatientReplyBody,
  PutConsumerBody,
  ThreadMessage,
  ThreadParams,
} from '../messaging.ts';
import {
  NotificationParams,
  NotificationReceipt,
  NotificationReceiptBody,
} from '../notifications.ts';
import { DeepLinkClaims, VerifyDeepLinkBody } from '../deep-links.ts';
import { DocumentUploadFields, RegisteredDocument } from '../data-preparation.ts';

/**
 * The assistant's integration API, `/api/v1`, every route behind an API key. Each route declares
 * its own errors; 400, 401, 413, 415, 429 and 500 are every `/api/v1` route's
 * (apps/server/src/platform/declared-responses.ts). The server registers them with
 * `app.integration.registerApiV1('METHOD /api/v1/…', { docs }, handler)`.
 */
export const API_V1_ROUTES = [
  // ------------------------------------------------------------- jobs and events (issue 6)
  {
    method: 'POST',
    path: '/api/v1/jobs',
    access: withApiKey,
    area: 'integration',
    patientData: 'write',
    spec: 'issue 6',
    headers: CreateJobHeaders,
    body: CreateJobBody,
    // 404: an exceptions task for a conversation Loopdesk does not know.
    response: { 200: JobView, 201: JobView, ...errorResponses([404, 409]) },
  },
  {
    method: 'GET',
    path: '/api/v1/jobs/:id',
    access: withApiKey,
    area: 'integration',
    patientData: 'read',
    spec: 'issue 6',
    params: JobIdParams,
    response: { 200: JobView, ...errorResponses([404]) },
  },
  {
    method: 'POST',
    path: '/api/v1/jobs/:id/cancel',
    access: withApiKey,
    area: 'integration',
    patientData: 'write',
    spec: 'issue 6',
    params: JobIdParams,
    body: NoBody,
    response: { 200: JobView, ...errorResponses([404, 409]) },
  },
  {
    method: 'GET',
    path: '/api/v1/events',
    access: withApiKey,
    area: 'integration',
    patientData: 'read',
    spec: 'issue 6',
    query: EventsQuery,
    response: { 200: EventFeed },
  },
  // ------------------------------------------- conversations of the exception desk (issue 5)
  {
    method: 'PUT',
    path: '/api/v1/conversations/:id',
    access: withApiKey,
    area: 'conversations',
    patientData: 'write',
    spec: 'issue 5',
    params: ConversationIdParams,
    body: PutConversationBody,
    response: { 200: ConversationView, 201: ConversationView, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/api/v1/conversations/:id',
    access: withApiKey,
    area: 'conversations',
    patientData: 'read',
    spec: 'issue 5',
    params: ConversationIdParams,
    response: { 200: ConversationView, ...errorResponses([404]) },
  },
  {
    method: 'POST',
    path: '/api/v1/conversations/:id/messages',
    access: withApiKey,
    area: 'conversations',
    patientData: 'write',
    spec: 'issue 5',
    params: ConversationIdParams,
    body: AppendMessageBody,
    response: {
      200: ConversationMessage,
      201: ConversationMessage,
      ...errorResponses([404, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/v1/conversations/:id/handover',
    access: withApiKey,
    area: 'conversations',
    patientData: 'write',
    spec: 'issue 5',
    params: ConversationIdParams,
    body: HandoverBody,
    response: { 200: ConversationView, ...errorResponses([404, 409]) },
  },
  {
    method: 'PUT',
    path: '/api/v1/configurations/:id',
    access: withApiKey,
    area: 'conversations',
    patientData: 'none',
    spec: 'issue 5',
    params: ConversationIdParams,
    body: PutConfigurationBody,
    response: { 200: TenantConfiguration },
  },
  {
    method: 'PUT',
    path: '/api/v1/physicians/:id',
    access: withApiKey,
    area: 'scheduling',
    patientData: 'none',
    spec: 'issue 5',
    params: PhysicianIdParams,
    body: PutPhysicianBody,
    response: { 200: PhysicianEntry },
  },
  // ------------------------------------------ the portal's questions to the assistant (issue 4)
  {
    method: 'GET',
    path: '/api/v1/requests',
    access: withApiKey,
    area: 'jobs',
    patientData: 'read',
    spec: 'issue 4',
    query: RequestsQuery,
    response: { 200: RequestList },
  },
  {
    method: 'POST',
    path: '/api/v1/requests/:id/answer',
    access: withApiKey,
    area: 'jobs',
    patientData: 'write',
    spec: 'issue 4',
    params: RequestIdParams,
    body: AnswerRequestBody,
    response: { 200: AnsweredRequestView, ...errorResponses([404, 409]) },
  },
  // ------------------------------------------------- patient communication (issue 15)
  {
    method: 'PUT',
    path: '/api/v1/consumers/:id',
    access: withApiKey,
    area: 'messaging',
    patientData: 'write',
    spec: 'issue 15 item 5',
    params: ConsumerIdParams,
    body: PutConsumerBody,
    // 409: the patient belongs to another tenant.
    response: { 200: ConsumerRegistered, ...errorResponses([409]) },
  },
  {
    method: 'POST',
    path: '/api/v1/threads/:id/messages',
    access: withApiKey,
    area: 'messaging',
    patientData: 'write',
    spec: 'issue 15 item 5',
    params: ThreadParams,
    body: PatientReplyBody,
    // 200: the same reply id again (a safe retry); 409: the thread is archived.
    response: { 200: ThreadMessage, 201: ThreadMessage, ...errorResponses([404, 409]) },
  },
  {
    method: 'POST',
    path: '/api/v1/notifications/:id/receipt',
    access: withApiKey,
    area: 'notifications',
    patientData: 'write',
    spec: 'issue 15 item 6',
    params: NotificationParams,
    body: NotificationReceiptBody,
    response: { 200: NotificationReceipt, ...errorResponses([404]) },
  },
  {
    method: 'POST',
    path: '/api/v1/deep-links/_verify',
    access: withApiKey,
    area: 'messaging',
    patientData: 'read',
    spec: 'issue 15 item 7',
    body: VerifyDeepLinkBody,
    // 403: a forged or expired link, or one for another purpose.
    response: { 200: DeepLinkClaims, ...errorResponses([403]) },
  },
  // ------------------------------------------------------------- data preparation (issue 12)
  {
    method: 'POST',
    path: '/api/v1/documents',
    access: withApiKey,
    area: 'data-preparation',
    patientData: 'write',
    spec: '2 §2',
    // multipart/form-data, read (streamed) by the handler: the body schema documents the form.
    consumes: ['multipart/form-data'],
    body: DocumentUploadFields,
    response: { 201: RegisteredDocument },
  },
] as const satisfies readonly ApiV1Route[];
