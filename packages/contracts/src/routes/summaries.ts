import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the summaries area. */
export const SUMMARIES_ROUTES = [
  {
    method: 'GET',
    path: '/internal/job-types/hpi-summarisation/jobs/_next',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    spec: '1 §7',
  },
  {
    method: 'PATCH',
    path: '/internal/job-types/hpi-summarisation/jobs/:id',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    spec: '1 §7',
  },
] as const satisfies readonly ApiRoute[];
