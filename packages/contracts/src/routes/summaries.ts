import { any, type ApiRoute } from './api-route.ts';
import { errorResponses } from '../errors.ts';
import { MessagesPage } from '../conversations.ts';
import {
  NextSummaryJob,
  SentSummaryJob,
  SummaryJob,
  SummaryJobParams,
  SummaryMessagesQuery,
  SummaryTenantHeaders,
} from '../summaries.ts';

/** The `/internal` routes of the summaries area. */
export const SUMMARIES_ROUTES = [
  {
    method: 'GET',
    path: '/internal/job-types/hpi-summarisation/jobs/_next',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    patientData: 'read',
    spec: '1 §7',
    response: { 200: NextSummaryJob },
  },
  {
    method: 'PATCH',
    path: '/internal/job-types/hpi-summarisation/jobs/:id',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    patientData: 'write',
    spec: '1 §7',
    params: SummaryJobParams,
    headers: SummaryTenantHeaders,
    body: SummaryJob,
    // 409: the caller does not hold the job (any more), or it was sent already.
    response: { 200: SummaryJob, ...errorResponses([409]) },
  },
  {
    method: 'POST',
    path: '/internal/job-types/hpi-summarisation/jobs/:id/_send',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    patientData: 'write',
    spec: '2 §2, §7 (submit summarisation job)',
    params: SummaryJobParams,
    headers: SummaryTenantHeaders,
    body: SummaryJob,
    response: { 200: SentSummaryJob, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/internal/job-types/hpi-summarisation/jobs/:id/messages',
    access: any('jobs:summarise:perform'),
    area: 'summaries',
    patientData: 'read',
    spec: '2 §2 (transcript tab), §9 (pages of 10)',
    params: SummaryJobParams,
    query: SummaryMessagesQuery,
    response: { 200: MessagesPage, ...errorResponses([409]) },
  },
] as const satisfies readonly ApiRoute[];
