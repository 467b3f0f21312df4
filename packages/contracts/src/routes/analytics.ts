import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the analytics area. */
export const ANALYTICS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/analytics/dashboard',
    access: any('analytics:dashboard:view'),
    area: 'analytics',
    spec: '3 §7',
  },
] as const satisfies readonly ApiRoute[];
