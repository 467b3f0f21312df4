import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the exceptions area. */
export const EXCEPTIONS_ROUTES = [
  {
    method: 'POST',
    path: '/internal/conversations/:id/_respond',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    spec: '1 §7, 2 §7',
  },
  {
    method: 'GET',
    path: '/internal/conversations/_queued',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/conversations/_dequeue',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/configurations/:id',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    spec: '2 §7',
  },
] as const satisfies readonly ApiRoute[];
