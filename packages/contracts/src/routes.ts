import type { z } from 'zod';
import type { Access, Privilege } from './privileges.ts';
import { DeadJobOutcome, DeadJobs, QueueSize } from './jobs.ts';
import { ManagedUser, Me } from './users.ts';
import { SessionActionResult, SessionCount, SessionSummary } from './realtime.ts';
import {
  ApiKeyList,
  ApiKeyView,
  CreatedApiKey,
  DeliveryList,
  WebhookDeliveryView,
} from './integration.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Which issue builds a route: until then the server answers 501 after the privilege check. */
export type Area =
  | 'users'
  | 'realtime'
  | 'jobs'
  | 'exceptions'
  | 'summaries'
  | 'data-preparation'
  | 'authoring'
  | 'async-jobs'
  | 'intelligence'
  | 'nlp'
  | 'conversations'
  | 'messaging'
  | 'notifications'
  | 'scheduling'
  | 'system'
  | 'analytics'
  | 'integration';

/** One `/internal` route of the three spec documents. */
export interface ApiRoute {
  readonly method: HttpMethod;
  /** Fastify path syntax (`:param`). */
  readonly path: string;
  readonly access: Access;
  readonly area: Area;
  /** Where the spec names it. */
  readonly spec: string;
  readonly response?: z.ZodType;
}

const signedIn: Access = { anyOf: [] };
const any = (...anyOf: Privilege[]): Access => ({ anyOf });

/**
 * Every `/internal` route of spec documents 1–3 with its privilege. Where the spec leaves a path
 * "not shown", the path chosen here is written down in docs/decisions.md.
 */
export const API_ROUTES = [
  // Users and sessions (spec 1 §7, spec 3 §7 Admin)
  {
    method: 'GET',
    path: '/internal/users/me',
    access: signedIn,
    area: 'users',
    spec: '1 §7',
    response: Me,
  },
  {
    method: 'POST',
    path: '/internal/users/me/_events',
    access: signedIn,
    area: 'realtime',
    spec: '1 §7',
  },
  {
    method: 'GET',
    path: '/internal/users/:userId',
    access: any('users:permissions:update'),
    area: 'users',
    spec: '1 §7, 3 §7',

    response: ManagedUser,
  },
  {
    method: 'PATCH',
    path: '/internal/users/:userId',
    access: any('users:permissions:update'),
    area: 'users',
    spec: '1 §7, 3 §7',

    response: ManagedUser,
  },
  {
    method: 'GET',
    path: '/internal/users/:userId/sessions/_close',
    access: any('users:permissions:update'),
    area: 'realtime',
    spec: '1 §7, 3 §7',
    response: SessionActionResult,
  },
  {
    method: 'GET',
    path: '/internal/users/:userId/sessions/_remove',
    access: any('users:permissions:update'),
    area: 'realtime',
    spec: '1 §7, 3 §7',
    response: SessionActionResult,
  },
  {
    method: 'GET',
    path: '/internal/sessions/_summary',
    access: any('users:permissions:update'),
    area: 'realtime',
    spec: '1 §7, 3 §7',
    response: SessionSummary,
  },
  {
    method: 'GET',
    path: '/internal/sessions/_count',
    access: any('jobs:federated:perform', 'jobs:exception:perform'),
    area: 'realtime',
    spec: '1 §7, 2 §7',
    response: SessionCount,
  },

  // Queue sizes: polled by every signed-in portal for the bell (spec 1 §2 Shell)
  {
    method: 'GET',
    path: '/internal/queues/federated/_size',
    access: signedIn,
    area: 'jobs',
    spec: '1 §7',
    response: QueueSize,
  },
  {
    method: 'GET',
    path: '/internal/queues/exceptions/_size',
    access: signedIn,
    area: 'jobs',
    spec: '1 §7',
    response: QueueSize,
  },
  {
    method: 'GET',
    path: '/internal/queues/hpi-summarisation/_size',
    access: signedIn,
    area: 'jobs',
    spec: '1 §7',
    response: QueueSize,
  },
  {
    method: 'GET',
    path: '/internal/queues/exceptions-restricted/_size',
    access: any('jobs:exception:perform'),
    area: 'jobs',
    spec: '1 §7',
    response: QueueSize,
  },

  // Dead-lettered jobs, listed for admins (issue 3)
  {
    method: 'GET',
    path: '/internal/jobs/_dead',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: jobs that used up their attempts',
    response: DeadJobs,
  },
  {
    method: 'POST',
    path: '/internal/jobs/:id/_requeue',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: a dead job back in its queue, with fresh attempts',
    response: DeadJobOutcome,
  },
  {
    method: 'POST',
    path: '/internal/jobs/:id/_discard',
    access: any('users:permissions:update'),
    area: 'jobs',
    spec: 'issue 3: a dead job cancelled for good',
    response: DeadJobOutcome,
  },

  // Clinical summary (spec 1 §7, spec 2 §7)
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

  // Federated workbench helpers (spec 1 §7)
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
  {
    method: 'GET',
    path: '/internal/utilities/typeahead',
    access: signedIn,
    area: 'intelligence',
    spec: '1 §7',
  },

  // NLP (spec 1 §7, spec 2 §7, spec 3 §7)
  {
    method: 'POST',
    path: '/internal/nlp/entities',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 2 §7',
  },
  {
    method: 'POST',
    path: '/internal/nlp/normalise',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 2 §7',
  },
  {
    method: 'POST',
    path: '/internal/nlp/evaluate',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 3 §7',
  },

  // Exceptions and conversations (spec 1 §7, spec 2 §7, spec 3 §7)
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
    path: '/internal/conversations/:id/messages',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '2 §7, 3 §7',
  },
  {
    method: 'GET',
    path: '/internal/conversations/:id/memory',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '2 §7, 3 §7',
  },
  {
    method: 'GET',
    path: '/internal/configurations/:id',
    access: any('jobs:exception:perform'),
    area: 'exceptions',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/consumers/:id',
    access: any('patient:data:read'),
    area: 'conversations',
    spec: '2 §7',
  },

  // Data preparation and authoring (spec 2 §7)
  {
    method: 'GET',
    path: '/internal/data-preparation/metadata/_size',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/metadata/summary',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/metadata/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'POST',
    path: '/internal/data-preparation/metadata',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/document/text/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/document/pdf/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'POST',
    path: '/internal/data-preparation/document/:name',
    access: any('jobs:preparation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/reference/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/query/:view',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },

  // Asynchronous pipelines (spec 3 §7)
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/_add_task',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/_pop',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'DELETE',
    path: '/internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/data/concept/_query',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/async-jobs/knowledge/revisions',
    access: any('jobs:async:perform'),
    area: 'async-jobs',
    spec: 'issue 7: knowledge-base versions written back by completed tasks',
  },

  // Ontology and clinical intelligence (spec 3 §7)
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/concepts/_classes',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/intelligence/ontology/concepts/_search',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/models/relationships',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/models/:modelName',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/models/:model/:id/_subgraph',
    access: any('graph:inspect:all'),
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/ontology/_count',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/ontology',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/conditions',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/observations',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/intelligence/clinical_inference/differential_diagnosis',
    access: any('test:differentialdiagnosis:perform', 'patient:conversations:read'),
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/demo/conversations',
    access: any('patient:conversations:search'),
    area: 'conversations',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/conversations/:id/clinical_inference/differential_diagnosis',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/conversations/:id/clinical_summaries/_current',
    access: any('patient:conversations:read'),
    area: 'conversations',
    spec: '3 §7',
  },

  // Admin and system (spec 1 §7, spec 3 §7)
  {
    method: 'GET',
    path: '/internal/experiment/health/_emr_test',
    access: any('system:administration:health_check'),
    area: 'system',
    spec: '1 §7, 3 §7',
  },
  {
    method: 'GET',
    path: '/internal/sysadmin/redis/_stats',
    access: any('system:redis:all'),
    area: 'system',
    spec: '3 §7',
  },

  // Scheduling (spec 3 §7)
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

  // Direct messaging and push (spec 3 §7)
  {
    method: 'GET',
    path: '/internal/messaging/groups',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/messaging/groups/_upsert',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'DELETE',
    path: '/internal/messaging/groups/:id',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/messaging/groups/:id/messages',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/messaging/groups/:id/messages',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
  {
    method: 'PATCH',
    path: '/internal/messaging/groups/:id/messages/_mark_as_read',
    access: any('patient:communication:all'),
    area: 'messaging',
    spec: '3 §7',
  },
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

  // Analytics (spec 3 §7)
  {
    method: 'GET',
    path: '/internal/analytics/dashboard',
    access: any('analytics:dashboard:view'),
    area: 'analytics',
    spec: '3 §7',
  },

  // Integration API administration (issue 6): API keys and webhook deliveries
  {
    method: 'GET',
    path: '/internal/integration/api-keys',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: ApiKeyList,
  },
  {
    method: 'POST',
    path: '/internal/integration/api-keys',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: CreatedApiKey,
  },
  {
    method: 'DELETE',
    path: '/internal/integration/api-keys/:id',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: ApiKeyView,
  },
  {
    method: 'GET',
    path: '/internal/integration/webhook-deliveries',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: DeliveryList,
  },
  {
    method: 'POST',
    path: '/internal/integration/webhook-deliveries/:eventId/_redeliver',
    access: any('users:permissions:update'),
    area: 'integration',
    spec: 'issue 6',
    response: WebhookDeliveryView,
  },
] as const satisfies readonly ApiRoute[];

/** Key of a route in the table: `METHOD path`. */
export function routeKey(route: Pick<ApiRoute, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** Fills a route path's `:params` (URI-encoded), for clients. */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) {
      throw new Error(`Missing path parameter ${name} for ${path}`);
    }
    return encodeURIComponent(value);
  });
}
