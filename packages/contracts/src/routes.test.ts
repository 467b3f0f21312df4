import { describe, expect, it } from 'vitest';
import { PRIVILEGES } from './privileges.ts';
import { API_ROUTES, fillPath, routeKey } from './routes.ts';

describe('API route table', () => {
  it('lists each method and path once, all under /internal', () => {
    const keys = API_ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of API_ROUTES) {
      expect(route.path.startsWith('/internal/')).toBe(true);
      for (const privilege of route.access.anyOf) {
        expect(PRIVILEGES).toContain(privilege);
      }
    }
  });

  it('holds the calls the three spec documents name', () => {
    const keys = new Set(API_ROUTES.map(routeKey));
    for (const key of [
      'GET /internal/job-types/hpi-summarisation/jobs/_next',
      'PATCH /internal/job-types/hpi-summarisation/jobs/:id',
      'GET /internal/queues/exceptions-restricted/_size',
      'POST /internal/users/me/_events',
      'GET /internal/experiment/health/_emr_test',
      'PATCH /internal/users/:userId',
      'GET /internal/quinn/intents/:intent/_context_menu',
      'GET /internal/sessions/_count',
      'GET /internal/users/:userId/sessions/_remove',
      'GET /internal/utilities/typeahead',
      'POST /internal/conversations/:id/_respond',
      'POST /internal/nlp/evaluate',
      'GET /internal/data-preparation/query/:view',
      'DELETE /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
      'GET /internal/intelligence/ontology/models/:model/:id/_subgraph',
      'GET /internal/intelligence/conversations/:id/clinical_summaries/_current',
      'GET /internal/sysadmin/redis/_stats',
      'POST /internal/appointments/_schedule',
      'PATCH /internal/messaging/groups/:id/messages/_mark_as_read',
      'POST /internal/notifications/_broadcast',
      'GET /internal/analytics/dashboard',
    ]) {
      expect(keys, key).toContain(key);
    }
  });

  it('fills path parameters, encoded, and refuses a missing one', () => {
    expect(fillPath('/internal/users/:userId', { userId: 'a/b' })).toBe('/internal/users/a%2Fb');
    expect(() => fillPath('/internal/users/:userId', {})).toThrow(/userId/);
  });
});
