import { any, type ApiRoute } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import {
  ArchivedThread,
  NoBody,
  SendThreadMessageBody,
  StartedThread,
  StartThreadBody,
  Thread,
  ThreadIdParams,
  ThreadList,
  ThreadMessage,
  ThreadMessageList,
} from '../messaging.ts';
import { CreateDeepLinkBody, DeepLink } from '../deep-links.ts';

/** The `/internal` routes of the messaging area. */
export const MESSAGING_ROUTES = [
  {
    method: 'GET',
    path: '/internal/messaging/groups',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
    response: { 200: ThreadList },
  },
  {
    method: 'POST',
    path: '/internal/messaging/groups/_upsert',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
    body: StartThreadBody,
    response: { 201: StartedThread, ...errorResponses([403, 404, 409]) },
  },
  {
    method: 'DELETE',
    path: '/internal/messaging/groups/:id',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
    params: ThreadIdParams,
    body: NoBody,
    response: { 200: ArchivedThread, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/internal/messaging/groups/:id/messages',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
    params: ThreadIdParams,
    response: { 200: ThreadMessageList },
  },
  {
    method: 'POST',
    path: '/internal/messaging/groups/:id/messages',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
    params: ThreadIdParams,
    body: SendThreadMessageBody,
    response: { 201: ThreadMessage, ...errorResponses([409]) },
  },
  {
    method: 'PATCH',
    path: '/internal/messaging/groups/:id/messages/_mark_as_read',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
    params: ThreadIdParams,
    body: NoBody,
    response: { 200: Thread, ...errorResponses([409]) },
  },
  {
    // Not in the spec (it names the /deep-link-generator screen only): docs/deep-links.md.
    method: 'POST',
    path: '/internal/deep-links',
    access: any('patient:appointments:create'),
    area: 'messaging',
    spec: '1 §2, 3 §2 (screen named only)',
    body: CreateDeepLinkBody,
    response: { 201: DeepLink, ...errorResponses([404]) },
  },
] as const satisfies readonly ApiRoute[];
