import { any, type ApiRoute } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import { ConversationIdParams } from '../conversations.ts';
import { BroadcastBody, CommunicationTestBody, NotificationQueued } from '../notifications.ts';

/** The `/internal` routes of the notifications area. */
export const NOTIFICATIONS_ROUTES = [
  {
    method: 'POST',
    path: '/internal/consumers/:id/communications/_test',
    access: any('patient:communication:all'),
    area: 'notifications',
    patientData: 'write',
    spec: '3 §7',
    params: ConversationIdParams,
    body: CommunicationTestBody,
    response: { 202: NotificationQueued, ...errorResponses([429]) },
  },
  {
    method: 'POST',
    path: '/internal/notifications/_broadcast',
    access: any('patient:communication:all'),
    area: 'notifications',
    patientData: 'write',
    spec: '3 §7',
    body: BroadcastBody,
    response: { 202: NotificationQueued, ...errorResponses([429]) },
  },
] as const satisfies readonly ApiRoute[];
