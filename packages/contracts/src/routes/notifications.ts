import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the notifications area. */
export const NOTIFICATIONS_ROUTES = [
  {
    method: 'POST',
    path: '/internal/consumers/:id/communications/_test',
    access: any('patient:communication:all'),
    area: 'notifications',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/notifications/_broadcast',
    access: any('patient:communication:all'),
    area: 'notifications',
    spec: '3 §7',
  },
] as const satisfies readonly ApiRoute[];
