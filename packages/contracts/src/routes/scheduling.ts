import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the scheduling area. */
export const SCHEDULING_ROUTES = [
  {
    method: 'GET',
    path: '/internal/physicians',
    access: any('patient:appointments:create', 'jobs:exception:perform'),
    area: 'scheduling',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/appointments/_schedule',
    access: any('patient:appointments:create'),
    area: 'scheduling',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/experiment/appointments/_summary',
    access: any('patient:appointments:create'),
    area: 'scheduling',
    spec: '3 §7',
  },
] as const satisfies readonly ApiRoute[];
