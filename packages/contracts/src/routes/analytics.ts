import { any, type ApiRoute } from './api-route.ts';
import { DashboardResponse } from '../analytics.ts';

/** The `/internal` routes of the analytics area. */
export const ANALYTICS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/analytics/dashboard',
    access: any('analytics:dashboard:view'),
    area: 'analytics',
    spec: '3 §7',
    response: { 200: DashboardResponse },
  },
] as const satisfies readonly ApiRoute[];
