import { describe, expect, it } from 'vitest';
import { PRIVILEGES } from './privileges.ts';
import { API_ROUTES, API_V1_ROUTES, fillPath, routeKey } from './routes.ts';
import { isStaffAccess } from './routes/api-route.ts';

describe('API route table', () => {
  it('lists each method and path once, all under /internal', () => {
    const keys = API_ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of API_ROUTES) {
      expect(route.path.startsWith('/internal/')).toBe(true);
      // A staff route names privileges; the analytics page's own calls carry its signed token.
      const access = route.access;
      if (isStaffAccess(access)) {
        for (const privilege of access.anyOf) {
          expect(PRIVILEGES).toContain(privilege);
        }
      } else {
        expect(route.path, routeKey(route)).toMatch(/^\/internal\/analytics\/embed\//);
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
      'GET /internal/analytics/embed/_open',
      'GET /internal/analytics/embed/figures',
    ]) {
      expect(keys, key).toContain(key);
    }
  });

  it('carries the schemas of every route: params, body (every non-GET) and responses', () => {
    const missing = API_ROUTES.flatMap((route) => {
      const has = (field: string) => field in route;
      const lacks = [
        ...(route.path.includes(':') && !has('params') ? ['params'] : []),
        ...(route.method !== 'GET' && !has('body') ? ['body'] : []),
        ...(!has('response') ? ['response'] : []),
      ];
      return lacks.length > 0 ? [`${routeKey(route)} lacks ${lacks.join(', ')}`] : [];
    });
    expect(missing).toEqual([]);
  });

  it('keys every response schema by a status code, with one success answer', () => {
    for (const route of API_ROUTES) {
      if (!('response' in route)) {
        continue;
      }
      const statuses = Object.keys(route.response).map(Number);
      for (const status of statuses) {
        expect(status >= 200 && status < 600, `${routeKey(route)} ${status}`).toBe(true);
      }
      expect(
        statuses.filter((status) => status < 300),
        routeKey(route),
      ).toHaveLength(1);
    }
  });

  it('lists the assistant’s /api/v1 routes once each, behind an API key, with their schemas', () => {
    const keys = API_V1_ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((key) => new Set(API_ROUTES.map(routeKey)).has(key))).toEqual([]);
    for (const route of API_V1_ROUTES) {
      expect(route.path.startsWith('/api/v1/'), routeKey(route)).toBe(true);
      expect(route.access, routeKey(route)).toEqual({ apiKey: true });
      expect(route.path.includes(':') === 'params' in route, routeKey(route)).toBe(true);
      expect(route.method === 'GET' || 'body' in route, routeKey(route)).toBe(true);
      expect(Object.keys(route.response).some((status) => Number(status) < 300)).toBe(true);
    }
  });

  it('fills path parameters, encoded, and refuses a missing one', () => {
    expect(fillPath('/internal/users/:userId', { userId: 'a/b' })).toBe('/internal/users/a%2Fb');
    expect(() => fillPath('/internal/users/:userId', {})).toThrow(/userId/);
  });
});
