import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the messaging area. */
export const MESSAGING_ROUTES = [
  {
    method: 'GET',
    path: '/internal/messaging/groups',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/messaging/groups/_upsert',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'DELETE',
    path: '/internal/messaging/groups/:id',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/messaging/groups/:id/messages',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/messaging/groups/:id/messages',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'PATCH',
    path: '/internal/messaging/groups/:id/messages/_mark_as_read',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
] as const satisfies readonly ApiRoute[];
