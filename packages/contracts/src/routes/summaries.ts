import { any, type ApiRoute } from './api-route.ts';
import { NextSummaryJob, SummaryJob, SummaryJobParams } from '../summaries.ts';

/** The `/internal` routes of the summaries area. */
export const SUMMARIES_ROUTES = [
  {
    method: 'GET',
    path: '/internal/job-types/hpi-summarisation/jobs/_next',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    spec: '1 §7',
    response: { 200: NextSummaryJob },
  },
  {
    method: 'PATCH',
    path: '/internal/job-types/hpi-summarisation/jobs/:id',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    spec: '1 §7',
    params: SummaryJobParams,
    body: SummaryJob,
    response: { 200: SummaryJob },
  },
] as const satisfies readonly ApiRoute[];
