import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, API_V1_ROUTES, routeKey } from '@loopdesk/contracts/routes.ts';
import { ROLES } from '@loopdesk/contracts/privileges.ts';
import { isStaffAccess } from '@loopdesk/contracts/routes/api-route.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { tokenForRoles } from '../test/tokens.ts';

/**
 * Audit completeness (HIPAA 164.312(b)). The route table marks each route that reads or writes
 * patient data; every call of such a route, answered, refused or failed, leaves an audit entry
 * that says who, what, when and the outcome. The story: each marked route is called without the
 * privilege (or the API key), with it but with input that names nothing, and, for the routes a
 * fresh installation can answer, successfully; each call's entry is looked up by its request id.
 */
const ALL = [
  ...API_ROUTES.map((route) => ({ ...route, v1: false })),
  ...API_V1_ROUTES.map((route) => ({ ...route, v1: true })),
];

/**
 * What makes a route look like it touches patient data: its path names conversations, patients
 * (consumers), jobs and their types, exceptions, summaries, documents, messages, threads,
 * appointments, deep links, notifications, the assistant's requests or memory, or technician
 * submissions. Each such route must say whether it does (`patientData`), either way.
 */
const LOOKS_LIKE_PATIENT_DATA =
  /conversation|consumer|patient|\/jobs?\b|job-types|exception|summar|document|metadata|thread|messages|appointment|deep-link|notification|requests|memory|_events|webhook-deliveries|quinn/;

const samplePath = (path: string) => path.replace(/:([A-Za-z]+)/g, 'no-such-record');
const hasBody = (method: string) => method !== 'GET' && method !== 'DELETE';

describe('audit completeness: every call of a route touching patient data is audited', () => {
  let t: TestApp;
  let staff: { token: string; userId: string };
  let nobody: string;
  let key: string;
  const startedAt = new Date(Date.now() - 1000);

  beforeAll(async () => {
    t = await startTestApp({ env: { ASSISTANT_REQUEST_TIMEOUT_SECONDS: '0.1' } });
    staff = await tokenForRoles(t, 'auditor@example.test', [...ROLES]);
    nobody = (await tokenForRoles(t, 'nobody@example.test', [])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${staff.token}` },
      payload: { name: 'audit-test' },
    });
    key = created.json<{ key: string }>().key;
  });
  /** The drill's figures, printed at the end: calls made, and the entries they left. */
  const figures = { calls: 0, withEntry: 0, corrections: 0, outcomes: new Map<string, number>() };
  afterAll(async () => {
    const outcomes = [...figures.outcomes].map(([outcome, n]) => `${outcome} ${n}`).join(', ');
    console.info(
      `[drill] audit completeness: ${marked.length} routes marked (read ` +
        `${marked.filter((route) => route.patientData === 'read').length}, write ` +
        `${marked.filter((route) => route.patientData === 'write').length}), ${figures.calls} calls, ` +
        `${figures.withEntry} with their audit entries (${outcomes}; ${figures.corrections} ` +
        'presumed outcomes corrected)',
    );
    await t.close();
  });

  /** Calls a route with a request id of its own; returns the answer and that call's entries. */
  async function call(options: {
    method: string;
    url: string;
    auth?: string;
    payload?: unknown;
    tenant?: string;
  }) {
    const requestId = randomUUID();
    const response = await t.app.inject({
      method: options.method as 'GET',
      url: options.url,
      headers: {
        'x-request-id': requestId,
        ...(options.auth ? { authorization: `Bearer ${options.auth}` } : {}),
        ...(options.tenant ? { 'x-tenant-id': options.tenant } : {}),
      },
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
    // The patient-data entry is in the node's journal before the answer; the table has it once
    // the journal is flushed (every reader of the trail flushes first).
    await t.app.auditJournal.flush();
    const entries = await t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('request_id', '=', requestId)
      .execute();
    // The request's patient-data entry as it happened (the view also leaves out presumed entries
    // of an older release that their answer corrected; see migration 029).
    const patientData = await t.database.db
      .selectFrom('patient_data_audit')
      .selectAll()
      .where('request_id', '=', requestId)
      .execute();
    figures.calls += 1;
    figures.withEntry += entries.length > 0 ? 1 : 0;
    figures.corrections += entries.filter(
      (e) => (e.details as { corrects?: unknown } | null)?.corrects !== undefined,
    ).length;
    for (const entry of entries) {
      figures.outcomes.set(entry.outcome, (figures.outcomes.get(entry.outcome) ?? 0) + 1);
    }
    return { response, entries, patientData };
  }

  it('marks every route whose path looks like patient data, either way', () => {
    const suspects = ALL.filter((route) => LOOKS_LIKE_PATIENT_DATA.test(route.path));
    expect(suspects.length).toBeGreaterThan(50);
    const unmarked = suspects.filter((route) => route.patientData === undefined).map(routeKey);
    expect(unmarked, 'routes that must declare patientData').toEqual([]);
    // And the marks are not all 'none': most of them do touch patient data.
    expect(suspects.filter((route) => route.patientData !== 'none').length).toBeGreaterThan(40);
  });

  const marked = ALL.filter(
    (route) => route.patientData === 'read' || route.patientData === 'write',
  );

  it.each(marked.map((route) => [routeKey(route), route] as const))(
    '%s: refused and failed calls leave an entry with who, what, when and the outcome',
    async (_name, route) => {
      const url = samplePath(route.path);
      const payload = hasBody(route.method) ? {} : undefined;
      // Refused: without the privilege (staff routes) or without an API key (/api/v1).
      const refused = await call({
        method: route.method,
        url,
        payload,
        ...(route.v1 ? {} : { auth: nobody }),
      });
      const refusedStatus = route.v1 || !isStaffAccess(route.access) ? 401 : 403;
      if (route.v1 || (isStaffAccess(route.access) && route.access.anyOf.length > 0)) {
        expect(refused.response.statusCode, refused.response.body).toBe(refusedStatus);
        expect(refused.entries).toHaveLength(1);
        expect(refused.entries[0]).toMatchObject({
          action: 'request.refused',
          outcome: 'denied',
          status_code: refusedStatus,
          details: { method: route.method, url },
        });
        if (!route.v1) {
          expect(refused.entries[0]?.actor_email).toBe('nobody@example.test');
        }
      }

      // Through the guard, naming a record that does not exist (or with an empty body).
      const failed = await call({
        method: route.method,
        url,
        payload,
        auth: route.v1 ? key : staff.token,
        tenant: 'acme',
      });
      const status = failed.response.statusCode;
      expect(status, failed.response.body).toBeGreaterThanOrEqual(200);
      expect(
        failed.patientData.map((e) => e.action),
        `${routeKey(route)} -> ${status}: ${JSON.stringify(failed.entries)}`,
      ).toEqual([`patient-data.${route.patientData}`]);
      const entry = failed.patientData[0];
      expect(entry).toMatchObject({
        outcome: status < 400 ? 'success' : status < 500 ? 'denied' : 'failure',
        status_code: status,
        resource_type: 'route',
        resource_id: routeKey(route),
        actor_id: route.v1 ? null : staff.userId,
        actor_email: route.v1 ? null : 'auditor@example.test',
      });
      if (route.v1) {
        expect(entry?.details).toMatchObject({ apiKey: 'audit-test' });
      }
      expect(new Date(entry?.occurred_at ?? 0).getTime()).toBeGreaterThanOrEqual(
        startedAt.getTime(),
      );
    },
  );

  it('audits successful reads and writes, and a call the assistant failed to answer (504)', async () => {
    const put = await call({
      method: 'PUT',
      url: '/api/v1/conversations/conv-audit',
      auth: key,
      payload: {
        tenant: 'acme',
        botConversationId: 'bot-conv-audit',
        consumer: { id: 'patient-audit', name: { given: 'Maya', family: 'Okafor' } },
      },
    });
    expect(put.response.statusCode, put.response.body).toBe(201);
    const successes = [
      put,
      await call({ method: 'GET', url: '/api/v1/conversations/conv-audit', auth: key }),
      await call({
        method: 'POST',
        url: '/api/v1/conversations/conv-audit/messages',
        auth: key,
        payload: { id: 'm1', direction: 'IN', content: 'chest pain since this morning' },
      }),
      await call({
        method: 'GET',
        url: '/internal/conversations/conv-audit/messages',
        auth: staff.token,
        tenant: 'acme',
      }),
      await call({
        method: 'GET',
        url: '/internal/conversations/_search?q=chest',
        auth: staff.token,
      }),
      await call({ method: 'GET', url: '/api/v1/events', auth: key }),
      await call({ method: 'GET', url: '/internal/jobs/_dead', auth: staff.token }),
    ];
    for (const { response, entries, patientData } of successes) {
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(patientData, JSON.stringify(entries)).toHaveLength(1);
      expect(patientData[0]).toMatchObject({
        outcome: 'success',
        status_code: response.statusCode,
      });
    }
    expect(successes[0]?.patientData[0]).toMatchObject({
      action: 'patient-data.write',
      resource_id: 'PUT /api/v1/conversations/:id',
      details: { params: { id: 'conv-audit' }, apiKey: 'audit-test' },
    });

    // No assistant answers in this test: the relay fails with a 504, audited as a failure.
    const memory = await call({
      method: 'POST',
      url: '/internal/quinn/conversations/bot-conv-audit/_memory',
      auth: staff.token,
      tenant: 'acme',
      payload: {},
    });
    expect(memory.response.statusCode).toBe(504);
    expect(memory.patientData).toHaveLength(1);
    expect(memory.patientData[0]).toMatchObject({
      outcome: 'failure',
      status_code: 504,
      actor_email: 'auditor@example.test',
    });
  });

  it('stores the parameters of a refused call even when they hold what PostgreSQL refuses', async () => {
    const odd = await call({
      method: 'GET',
      url: '/api/v1/conversations/conv%00x',
      auth: key,
    });
    expect(odd.response.statusCode).toBe(400);
    expect(odd.patientData).toHaveLength(1);
    expect(odd.patientData[0]).toMatchObject({
      outcome: 'denied',
      details: { params: { id: 'conv\ufffdx' } },
    });
  });
});
