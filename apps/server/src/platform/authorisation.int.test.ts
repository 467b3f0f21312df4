import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_ROUTES } from '@loopdesk/contracts/portal-routes.ts';
import { canAccess, ROLES, type Role } from '@loopdesk/contracts/privileges.ts';
import { SOCKET_PATHS, type SessionSource } from '@loopdesk/contracts/realtime.ts';
import { API_ROUTES, routeKey } from '@loopdesk/contracts/routes.ts';
import { isStaffAccess } from '@loopdesk/contracts/routes/api-route.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { annotationData, openSocket } from '../test/socket-client.ts';
import { createJobsRepository } from '../modules/jobs/repository.ts';
import { tokenForRoles } from '../test/tokens.ts';
import { SOCKET_PRIVILEGE } from '../modules/realtime/role-changes.ts';

/**
 * The data each built screen loads: the routes its feature calls (apps/web/src/features/<area>/api
 * and the shared workbench and appointment components), written down from the web source.
 * Shell data every signed-in user loads (`GET /internal/users/me`) is left out.
 */
const SCREEN_DATA: Record<string, readonly string[]> = {
  dashboard: ['GET /internal/analytics/dashboard'],
  federated: [
    'GET /internal/queues/federated/_size',
    'GET /internal/sessions/_count',
    'GET /internal/utilities/typeahead',
    'POST /internal/quinn/messages/:operation',
  ],
  exception: [
    'GET /internal/conversations/_queued',
    'GET /internal/queues/exceptions/_size',
    'GET /internal/configurations/:id',
    'GET /internal/consumers/:id',
    'GET /internal/conversations/:id/messages',
    'GET /internal/physicians',
    'POST /internal/appointments/_schedule',
  ],
  async: ['GET /internal/async-jobs/pipelines', 'GET /internal/async-jobs/tasks/mine'],
  'async-task': [
    'GET /internal/async-jobs/pipelines/:pipelineId',
    'GET /internal/async-jobs/pipelines/:pipelineId/steps/:step/tasks/:taskId',
    'GET /internal/async-jobs/data/concept/_query',
  ],
  'async-add-task': ['GET /internal/async-jobs/pipelines/:pipelineId'],
  'clinical-summary': [
    'GET /internal/queues/hpi-summarisation/_size',
    'GET /internal/job-types/hpi-summarisation/jobs/_next',
    'GET /internal/job-types/hpi-summarisation/jobs/:id/messages',
  ],
  'data-preparation': [
    'GET /internal/data-preparation/metadata/_size',
    'GET /internal/data-preparation/metadata/summary',
    'GET /internal/data-preparation/metadata/_next',
  ],
  'data-preparation-job': [
    'GET /internal/data-preparation/metadata/:id',
    'GET /internal/data-preparation/document/text/:id',
    'GET /internal/data-preparation/query/:view',
  ],
  'authoring-tasks': ['GET /internal/authoring/jobs', 'POST /internal/authoring/jobs/:id/_take'],
  'authoring-task': [
    'GET /internal/authoring/jobs/:id',
    'GET /internal/data-preparation/query/:view',
    'POST /internal/nlp/entities',
  ],
  'authoring-review': ['GET /internal/authoring/jobs/:id'],
  'entity-recognition': ['POST /internal/nlp/evaluate'],
  'differential-diagnosis': [
    'POST /internal/intelligence/clinical_inference/differential_diagnosis',
    'POST /internal/intelligence/ontology/concepts/_search',
  ],
  'clinical-inference': [
    'GET /internal/intelligence/clinical_inference/ontology',
    'GET /internal/intelligence/clinical_inference/ontology/_count',
    'GET /internal/intelligence/clinical_inference/conditions',
    'GET /internal/intelligence/clinical_inference/observations',
  ],
  conversations: [
    'GET /internal/conversations/_search',
    'GET /internal/intelligence/demo/conversations',
    'GET /internal/conversations/:id/messages',
  ],
  'direct-messaging': [
    'GET /internal/messaging/groups',
    'GET /internal/messaging/groups/:id/messages',
    'GET /internal/consumers/:id',
  ],
  'push-broadcast': [
    'POST /internal/consumers/:id/communications/_test',
    'POST /internal/notifications/_broadcast',
  ],
  scheduling: [
    'GET /internal/experiment/appointments/_summary',
    'GET /internal/physicians',
    'POST /internal/appointments/_schedule',
  ],
  'deep-link-generator': [
    'GET /internal/experiment/appointments/_summary',
    'POST /internal/deep-links',
  ],
  'inspect-graph': [
    'GET /internal/intelligence/ontology/models/:modelName',
    'GET /internal/intelligence/ontology/models/:model/:id/_subgraph',
  ],
  'user-management': ['GET /internal/users', 'GET /internal/users/:userId'],
  'session-management': ['GET /internal/sessions/_summary', 'GET /internal/users/:userId'],
  'system-health': ['GET /internal/experiment/health/_emr_test'],
  redis: ['GET /internal/sysadmin/redis/_stats'],
};

const ROUTE_BY_KEY = new Map(API_ROUTES.map((route) => [routeKey(route), route]));
const samplePath = (path: string) => path.replace(/:([A-Za-z]+)/g, 'c2FtcGxl');
/** The built screens, and the planned one whose routes exist already. */
const BUILT = PORTAL_ROUTES.filter(
  (screen) => screen.status === 'built' || screen.id === 'authoring-tasks',
);
const ROLE_SETS: [string, Role[]][] = [...ROLES.map((role): [string, Role[]] => [role, [role]])];

describe('authorisation: screens, sockets and tenants', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    for (const [name, roles] of [...ROLE_SETS, ['none', []] as [string, Role[]]]) {
      tokens.set(name, (await tokenForRoles(t, `${name}@example.test`, roles)).token);
    }
  });
  afterAll(async () => {
    const refused = await t.database.db
      .selectFrom('audit_events')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('action', '=', 'request.refused')
      .executeTakeFirstOrThrow();
    console.info(
      `[drill] authorisation: ${BUILT.length} screens and ${Object.keys(SOCKET_PATHS).length} ` +
        `sockets for ${ROLE_SETS.length + 1} role sets (no role included), tenants acme and ` +
        `beta; ${refused.n} requests and sockets refused with 401/403, each audited`,
    );
    await t.close();
  });

  it('knows the data of every built screen, and every route it names exists', () => {
    expect(Object.keys(SCREEN_DATA).sort()).toEqual(BUILT.map((screen) => screen.id).sort());
    const unknown = Object.values(SCREEN_DATA)
      .flat()
      .filter((key) => !ROUTE_BY_KEY.has(key));
    expect(unknown).toEqual([]);
  });

  it.each([...ROLE_SETS, ['none', [] as Role[]] as [string, Role[]]])(
    'role %s: loads no data of a screen it cannot open, unless a screen it can open uses it',
    async (name, roles) => {
      const open = BUILT.filter((screen) => canAccess(roles, screen.access));
      const reachable = new Set(open.flatMap((screen) => SCREEN_DATA[screen.id] ?? []));
      for (const screen of BUILT.filter((s) => !canAccess(roles, s.access))) {
        for (const key of SCREEN_DATA[screen.id] ?? []) {
          const route = ROUTE_BY_KEY.get(key);
          // Signed-in routes are shell data (the drawer's queue sizes): every user loads them.
          if (
            !route ||
            !isStaffAccess(route.access) ||
            route.access.anyOf.length === 0 ||
            reachable.has(key)
          ) {
            continue;
          }
          const response = await t.app.inject({
            method: route.method,
            url: samplePath(route.path),
            headers: { authorization: `Bearer ${tokens.get(name) ?? ''}` },
            ...(route.method === 'GET' ? {} : { payload: {} }),
          });
          expect(response.statusCode, `${name} on ${screen.id}: ${key}`).toBe(403);
        }
      }
    },
  );

  it('every route a role can call serves a screen it can open (no data beyond its screens)', () => {
    const served = new Set(Object.values(SCREEN_DATA).flat());
    const loose: string[] = [];
    for (const [name, roles] of ROLE_SETS) {
      const open = BUILT.filter((screen) => canAccess(roles, screen.access));
      const reachable = new Set(open.flatMap((screen) => SCREEN_DATA[screen.id] ?? []));
      for (const key of served) {
        const route = ROUTE_BY_KEY.get(key);
        if (route && isStaffAccess(route.access) && route.access.anyOf.length > 0) {
          if (canAccess(roles, route.access) && !reachable.has(key)) {
            loose.push(`${name}: ${key}`);
          }
        }
      }
    }
    expect(loose).toEqual([]);
  });

  it.each(Object.entries(SOCKET_PATHS) as [SessionSource, string][])(
    'socket %s: opens for the roles with its privilege, refused with 403 for every other',
    async (source, path) => {
      for (const [name, roles] of [...ROLE_SETS, ['none', [] as Role[]] as [string, Role[]]]) {
        const allowed = canAccess(roles, { anyOf: [SOCKET_PRIVILEGE[source]] });
        const attempt = openSocket(t.baseUrl, path, tokens.get(name) ?? '');
        if (allowed) {
          const socket = await attempt;
          await socket.next('technician.session.paused');
          socket.ws.close();
          await socket.closed;
        } else {
          await expect(attempt, `${name} on ${path}`).rejects.toThrow(/403/);
        }
      }
      await expect(openSocket(t.baseUrl, path, null)).rejects.toThrow(/401/);
      await expect(openSocket(t.baseUrl, path, 'not-a-token')).rejects.toThrow(/401/);
    },
  );

  describe('tenant isolation: X-Tenant-ID naming one tenant never reads another tenant’s records', () => {
    let medical: string;
    beforeAll(async () => {
      medical = (await tokenForRoles(t, 'tenant-reader@example.test', [...ROLES])).token;
      const admin = tokens.get('admin') ?? '';
      const created = await t.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'tenants' },
      });
      const key = created.json<{ key: string }>().key;
      for (const [tenant, id, family, text] of [
        ['acme', 'conv-acme', 'Acmefamily', 'acme secret symptom'],
        ['beta', 'conv-beta', 'Betafamily', 'beta secret symptom'],
      ] as const) {
        const put = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/conversations/${id}`,
          headers: { authorization: `Bearer ${key}` },
          payload: {
            tenant,
            botConversationId: `bot-${id}`,
            consumer: { id: `patient-${tenant}`, name: { given: 'Pat', family } },
          },
        });
        expect(put.statusCode, put.body).toBe(201);
        const message = await t.app.inject({
          method: 'POST',
          url: `/api/v1/conversations/${id}/messages`,
          headers: { authorization: `Bearer ${key}` },
          payload: { id: 'm1', direction: 'IN', content: text },
        });
        expect(message.statusCode, message.body).toBeLessThan(300);
      }
    });

    const read = (url: string, tenant: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${medical}`, 'x-tenant-id': tenant },
      });

    it.each([
      '/internal/conversations/conv-acme/messages',
      '/internal/conversations/conv-acme/memory',
      '/internal/conversations/conv-acme/_reads',
      '/internal/consumers/patient-acme',
      '/internal/intelligence/conversations/conv-acme/clinical_summaries/_current',
      '/internal/intelligence/conversations/conv-acme/clinical_inference/differential_diagnosis',
    ])('%s: refused for the other tenant, and nothing of it in the answer', async (url) => {
      const other = await read(url, 'beta');
      expect(other.statusCode, other.body).toBeGreaterThanOrEqual(400);
      expect(other.statusCode, other.body).toBeLessThan(500);
      expect(other.body).not.toMatch(/acme secret|Acmefamily/);
      // The same call for its own tenant is not refused for the tenant (the check can fail).
      const own = await read(url, 'acme');
      expect(own.statusCode, own.body).not.toBe(other.statusCode === 404 ? 404 : -1);
    });

    it('a job of tenant beta naming acme’s conversation and patient: its frame is what the assistant sent, its context holds nothing of acme', async () => {
      const tech = (await tokenForRoles(t, 'tenant-tech@example.test', ['annotator'])).token;
      const socket = await openSocket(t.baseUrl, '/ws/federated', tech);
      try {
        await socket.next('technician.session.paused');
        socket.send('technician.session.activate');
        await socket.next('technician.session.waiting');
        const jobs = createJobsRepository(t.database.db);
        const contextOf = async (tenant: string) => {
          const job = await jobs.enqueue({
            queue: 'federated',
            type: 'message.annotation.job',
            tenant,
            payload: {
              lastTurn: {
                content: 'Since Tuesday',
                messageId: 'm2',
                userId: 'patient-acme',
                metadata: { conversationId: 'conv-acme' },
              },
            },
          });
          await t.app.hub.jobsAvailable(['federated']);
          const frame = await socket.next('message.annotation.job');
          const context = await t.app.inject({
            method: 'GET',
            url: `/internal/quinn/jobs/${job.id}/_context`,
            headers: { authorization: `Bearer ${tech}` },
          });
          socket.send('message.annotation', annotationData(job.id));
          await socket.next('technician.session.waiting');
          return { frame: JSON.stringify(frame), context };
        };
        const beta = await contextOf('beta');
        expect(beta.frame).not.toMatch(/acme secret|Acmefamily/);
        expect(beta.context.statusCode, beta.context.body).toBe(200);
        expect(beta.context.body).not.toMatch(/acme secret|Acmefamily|"Pat"/);
        // The same job of tenant acme reads acme's conversation (the check can fail).
        const acme = await contextOf('acme');
        expect(acme.context.body).toMatch(/acme secret/);
      } finally {
        socket.ws.close();
        await socket.closed;
      }
    });

    it('the conversation list and search with X-Tenant-ID list that tenant’s conversations only', async () => {
      for (const url of [
        '/internal/conversations/_search?q=secret',
        '/internal/intelligence/demo/conversations',
      ]) {
        const beta = await read(url, 'beta');
        expect(beta.statusCode, `${url} ${beta.body}`).toBe(200);
        expect(beta.body, url).not.toMatch(/conv-acme|Acmefamily|acme secret/);
        const acme = await read(url, 'acme');
        expect(acme.statusCode, url).toBe(200);
        expect(acme.body, url).toMatch(/conv-acme|Acmefamily/);
        expect(acme.body, url).not.toMatch(/conv-beta|Betafamily|beta secret/);
      }
    });
  });
});
