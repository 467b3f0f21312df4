import { errorResponses } from '../errors.ts';
import { any, NoBody, signedIn, type ApiRoute } from './api-route.ts';
import { DeadJobOutcome, DeadJobs, JobIdParams, QueueSize } from '../jobs.ts';
import {
  AnsweredEvent,
  ConversationMemory,
  IntentParams,
  MemoryParams,
  MessageOperationBody,
  OperationParams,
  OptionalQuinnTenantHeaders,
  QuinnTenantHeaders,
  QUINN_ERROR_RESPONSES,
  QuinnTenantQuery,
} from '../quinn.ts';
import { IntentContextMenu } from '../workbench-payloads.ts';
import { ERROR_RESPONSES } from '../errors.ts';
import { HeldJobParams, JobContext } from '../job-context.ts';

/** The `/internal` routes of the jobs area. */
export const JOBS_ROUTES = [
  {
    method: 'GET',
    path: '/internal/queues/federated/_size',
    access: signedIn,
    area: 'jobs',
    spec: '1 §7',
    response: { 200: QueueSize },
  },
  {
    method: 'GET',
    path: '/internal/queues/exceptions/_size',
    access: signedIn,
    area: 'jobs',
    spec: '1 §7',
    response: { 200: QueueSize },
  },
  {
    method: 'GET',
    path: '/internal/queues/hpi-summarisation/_size',
    access: signedIn,
    area: 'jobs',
    spec: '1 §7',
    response: { 200: QueueSize },
  },
  {
    method: 'GET',
    path: '/internal/queues/exceptions-restricted/_size',
    access: any('jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7',
    response: { 200: QueueSize },
  },
  {
    method: 'GET',
    path: '/internal/jobs/_dead',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: jobs that used up their attempts',
    response: { 200: DeadJobs },
  },
  {
    method: 'POST',
    path: '/internal/jobs/:id/_requeue',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: a dead job back in its queue, with fresh attempts',
    params: JobIdParams,
    body: NoBody,
    // 409: the job is not dead (any more).
    response: { 200: DeadJobOutcome, ...errorResponses([409]) },
  },
  {
    method: 'POST',
    path: '/internal/jobs/:id/_discard',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: a dead job cancelled for good',
    params: JobIdParams,
    body: NoBody,
    // 409: the job is not dead (any more).
    response: { 200: DeadJobOutcome, ...errorResponses([409]) },
  },
  {
    method: 'GET',
    path: '/internal/quinn/jobs/:id/_context',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: "issue 20: the held job's patient and earlier turns",
    params: HeldJobParams,
    response: { 200: JobContext, ...ERROR_RESPONSES },
  },
  {
    method: 'GET',
    path: '/internal/quinn/intents/:intent/_context_menu',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7',
    params: IntentParams,
    headers: QuinnTenantHeaders,
    response: { 200: IntentContextMenu, ...QUINN_ERROR_RESPONSES },
  },
  {
    method: 'POST',
    path: '/internal/quinn/conversations/:id/_memory',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7',
    params: MemoryParams,
    headers: QuinnTenantHeaders,
    body: NoBody,
    response: { 200: ConversationMemory, ...QUINN_ERROR_RESPONSES },
  },
  {
    method: 'POST',
    path: '/internal/quinn/messages/:operation',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7 (message.intents, message.next, message.redirect; path not shown)',
    params: OperationParams,
    query: QuinnTenantQuery,
    headers: OptionalQuinnTenantHeaders,
    body: MessageOperationBody,
    response: { 200: AnsweredEvent, ...QUINN_ERROR_RESPONSES },
  },
] as const satisfies readonly ApiRoute[];
