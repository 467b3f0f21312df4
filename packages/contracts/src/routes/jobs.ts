import { any, signedIn, type ApiRoute } from './api-route.ts';
import { DeadJobOutcome, DeadJobs, QueueSize } from '../jobs.ts';

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
    response: { 200: DeadJobOutcome },
  },
  {
    method: 'POST',
    path: '/internal/jobs/:id/_discard',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: a dead job cancelled for good',
    response: { 200: DeadJobOutcome },
  },
  {
    method: 'GET',
    path: '/internal/quinn/intents/:intent/_context_menu',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7',
  },
  {
    method: 'POST',
    path: '/internal/quinn/conversations/:id/_memory',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7',
  },
  {
    method: 'POST',
    path: '/internal/quinn/messages/:operation',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7 (message.intents, message.next, message.redirect; path not shown)',
  },
] as const satisfies readonly ApiRoute[];
