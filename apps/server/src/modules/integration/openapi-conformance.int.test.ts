import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

/**
 * Issue 21: real calls to every `/api/v1` operation, for its success and for each error it
 * declares, each checked against the OpenAPI document the server serves: the status is one the
 * operation declares, and the body validates against that status's schema (ajv, JSON Schema 2020).
 */

type Method = 'GET' | 'POST' | 'PUT';
type Operation = OpenAPIV3_1.OperationObject;

const annotationJob = {
  queue: 'federated',
  type: 'message.annotation.job',
  tenant: 'acme-clinic',
  data: {
    slot: { id: 'slot-1', code: 'onset' },
    lastTurn: { content: 'My head hurts since Monday', messageId: 'm-1' },
    job: { purpose: 'full' },
  },
};
const MISSING = '00000000-0000-4000-8000-000000000000';
const TWO_MIB = JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) });

/** The operations of a document, by `METHOD /path/{param}`. */
function operationsOf(document: OpenAPIV3_1.Document): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item?.[method];
      if (operation) {
        operations.set(`${method.toUpperCase()} ${path}`, operation);
      }
    }
  }
  return operations;
}

/** Fills `{param}` with a sample value. */
const sampleUrl = (path: string) => path.replace(/\{[^}]+\}/g, MISSING);

describe('every /api/v1 operation answers as the OpenAPI document says', () => {
  let t: TestApp;
  let operations: Map<string, Operation>;
  let key: string;
  let annotator: string;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its plugin is the default export's `default`.
  (addFormats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
  const validators = new Map<string, ValidateFunction>();
  /** The statuses met for each operation, to prove every declared one was called. */
  const seen = new Map<string, Set<number>>();

  beforeAll(async () => {
    t = await startTestApp();
    const served = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    // Validated and dereferenced by the reference parser; the schemas below are its output.
    const document = (await SwaggerParser.dereference(served)) as OpenAPIV3_1.Document;
    operations = operationsOf(document);
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'conformance' },
    });
    key = created.json().key;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Checks one answer of an operation against the document. */
  function conforms(
    operationKey: string,
    response: { statusCode: number; headers: Record<string, unknown>; body: string },
  ) {
    const operation = operations.get(operationKey);
    expect(operation, `${operationKey} is in the document`).toBeDefined();
    const declared = operation?.responses?.[String(response.statusCode)] as
      OpenAPIV3_1.ResponseObject | undefined;
    expect(
      declared,
      `${operationKey} answered ${response.statusCode}, which it does not declare: ${response.body}`,
    ).toBeDefined();
    const schema = declared?.content?.['application/json']?.schema;
    expect(schema, `${operationKey} ${response.statusCode} has a JSON schema`).toBeDefined();
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    const id = `${operationKey} ${response.statusCode}`;
    let validate = validators.get(id);
    if (!validate) {
      validate = ajv.compile(schema as object);
      validators.set(id, validate);
    }
    const body: unknown = JSON.parse(response.body);
    expect(validate(body), `${id}: ${ajv.errorsText(validate.errors)}\n${response.body}`).toBe(
      true,
    );
    const statuses = seen.get(operationKey) ?? new Set<number>();
    statuses.add(response.statusCode);
    seen.set(operationKey, statuses);
  }

  /** A real call to an operation, checked against the document; `expected` is its status. */
  async function call(
    operationKey: string,
    expected: number,
    options: {
      url?: string;
      payload?: unknown;
      headers?: Record<string, string>;
      auth?: string | null;
    } = {},
  ) {
    const [method, path] = operationKey.split(' ') as [Method, string];
    const auth = options.auth === undefined ? key : options.auth;
    const response = await t.app.inject({
      method,
      url: options.url ?? sampleUrl(path),
      headers: {
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
        ...options.headers,
      },
      ...(options.payload === undefined
        ? {}
        : { payload: options.payload as Record<string, unknown> }),
    });
    expect(response.statusCode, `${operationKey}: ${response.body}`).toBe(expected);
    conforms(operationKey, response);
    return response;
  }

  it('jobs: create (201, then 200 for the same key), read, cancel; 400, 404 and 409 of each', async () => {
    const create = 'POST /api/v1/jobs';
    const idem = { 'idempotency-key': 'conformance-1' };
    const job = (await call(create, 201, { payload: annotationJob, headers: idem })).json();
    await call(create, 200, { payload: annotationJob, headers: idem });
    await call(create, 409, { payload: { ...annotationJob, tenant: 'other' }, headers: idem });
    await call(create, 400, { payload: { ...annotationJob, queue: 'nope' }, headers: idem });
    const task = { queue: 'exceptions', type: 'exception.job', tenant: 'acme-clinic' };
    await call(create, 404, {
      payload: { ...task, data: { conversationId: 'missing' } },
      headers: { 'idempotency-key': 'conformance-2' },
    });

    const read = 'GET /api/v1/jobs/{id}';
    await call(read, 200, { url: `/api/v1/jobs/${job.id}` });
    await call(read, 404);
    await call(read, 400, { url: '/api/v1/jobs/not-a-uuid' });

    const cancel = 'POST /api/v1/jobs/{id}/cancel';
    await call(cancel, 200, { url: `/api/v1/jobs/${job.id}/cancel` });
    await call(cancel, 409, { url: `/api/v1/jobs/${job.id}/cancel` });
    await call(cancel, 404);
    await call(cancel, 400, { url: '/api/v1/jobs/not-a-uuid/cancel' });
  });

  it('events: the feed (200) and a bad cursor (400)', async () => {
    // The feed shows only events older than every transaction still open on the database
    // server (modules/integration/outbox.ts): another test file's open transaction, even in
    // another database, holds them back for a moment, so read until they show.
    let feed = (await call('GET /api/v1/events', 200)).json();
    for (let tries = 0; feed.events.length === 0 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      feed = (await call('GET /api/v1/events', 200)).json();
    }
    expect(feed.events.length).toBeGreaterThan(0);
    await call('GET /api/v1/events', 400, { url: '/api/v1/events?limit=0' });
  });

  it("requests: the portal's question read (200) and answered (200, then 409); 400 and 404", async () => {
    const asked = t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/repeat_prescription/_context_menu',
      headers: { authorization: `Bearer ${annotator}`, 'x-tenant-id': 'acme-clinic' },
    });
    const read = 'GET /api/v1/requests';
    let pending: { id: string } | undefined;
    for (let tries = 0; !pending && tries < 50; tries += 1) {
      pending = (await call(read, 200, { url: '/api/v1/requests?wait=1' })).json().requests[0];
    }
    expect(pending).toBeDefined();
    await call(read, 400, { url: '/api/v1/requests?wait=-1' });

    const answer = 'POST /api/v1/requests/{id}/answer';
    const url = `/api/v1/requests/${pending?.id ?? ''}/answer`;
    const menu = { answer: { menu: { Symptoms: ['Headache'] }, derived: [] } };
    await call(answer, 200, { url, payload: menu });
    expect((await asked).statusCode).toBe(200);
    await call(answer, 409, { url, payload: menu });
    await call(answer, 404, { payload: menu });
    await call(answer, 400, { url, payload: { neither: true } });
  });

  it('conversations: register (201, 200), read, messages, handover; 400, 404 and 409', async () => {
    const id = 'conv-conformance';
    const conversation = {
      tenant: 'acme-clinic',
      consumer: { id: 'patient-conformance', name: { given: 'Pat', family: 'Doe' } },
    };
    const put = 'PUT /api/v1/conversations/{id}';
    const url = `/api/v1/conversations/${id}`;
    await call(put, 201, { url, payload: conversation });
    await call(put, 200, { url, payload: conversation });
    await call(put, 409, { url, payload: { ...conversation, tenant: 'other-clinic' } });
    await call(put, 400, { url, payload: { tenant: '' } });

    const get = 'GET /api/v1/conversations/{id}';
    await call(get, 200, { url });
    await call(get, 404);
    await call(get, 400, { url: '/api/v1/conversations/not%20an%20id' });

    const say = 'POST /api/v1/conversations/{id}/messages';
    const message = { id: 'm-1', direction: 'IN', content: 'Hello' };
    await call(say, 201, { url: `${url}/messages`, payload: message });
    await call(say, 200, { url: `${url}/messages`, payload: message });
    await call(say, 409, { url: `${url}/messages`, payload: { ...message, content: 'Other' } });
    await call(say, 404, { payload: message });
    await call(say, 400, { url: `${url}/messages`, payload: { ...message, direction: 'UP' } });

    const handover = 'POST /api/v1/conversations/{id}/handover';
    await call(handover, 200, { url: `${url}/handover`, payload: { reason: 'needs a human' } });
    await call(handover, 404, { payload: { reason: 'needs a human' } });
    await call(handover, 400, { url: `${url}/handover`, payload: {} });
    await sql`update conversations set status = 'ended', end_type = 'END' where id = ${id}`.execute(
      t.database.db,
    );
    await call(handover, 409, { url: `${url}/handover`, payload: { reason: 'again' } });
  });

  it('configurations and physicians: register (200); 400', async () => {
    const configuration = 'PUT /api/v1/configurations/{id}';
    await call(configuration, 200, {
      url: '/api/v1/configurations/acme',
      payload: { tenant: 'acme-clinic', displayName: 'Acme Clinic' },
    });
    await call(configuration, 400, { url: '/api/v1/configurations/acme', payload: {} });
    const physician = 'PUT /api/v1/physicians/{id}';
    await call(physician, 200, {
      url: '/api/v1/physicians/dr-hale',
      payload: { firstName: 'Iris', lastName: 'Hale' },
    });
    await call(physician, 400, { url: '/api/v1/physicians/dr-hale', payload: { firstName: '' } });
  });

  it('documents: register a guideline (201); 400 without its source', async () => {
    const documents = 'POST /api/v1/documents';
    const form = async (fields: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        body.append(name, value);
      }
      body.append('file', new Blob(['Guideline text']), 'guideline.txt');
      const request = new Request('http://localhost/', { method: 'POST', body });
      return {
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { 'content-type': request.headers.get('content-type') ?? '' },
      };
    };
    await call(documents, 201, await form({ name: 'Guideline', source: 'A guideline body' }));
    await call(documents, 400, await form({ name: 'Guideline' }));
  });

  it('every operation: 401 without a key; 413 and 415 for a body too large or not JSON', async () => {
    for (const [operationKey, operation] of operations) {
      await call(operationKey, 401, { auth: null });
      if (operation.responses?.['415']) {
        await call(operationKey, 415, {
          headers: { 'content-type': 'text/plain' },
          payload: 'plain words',
        });
      }
      if (operation.responses?.['413']) {
        await call(operationKey, 413, {
          headers: { 'content-type': 'application/json' },
          payload: TWO_MIB,
        });
      }
    }
  });

  it('every operation declares 400, 401, 429 and 500 in the one error shape, and a body route 413 and 415', () => {
    for (const [operationKey, operation] of operations) {
      const statuses = Object.keys(operation.responses ?? {});
      const expected = ['400', '401', '429', '500'];
      if (!operationKey.startsWith('GET')) {
        expected.push('413', '415');
      }
      expect(statuses, operationKey).toEqual(expect.arrayContaining(expected));
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const response = operation.responses?.[status] as OpenAPIV3_1.ResponseObject;
        const schema = response.content?.['application/json']?.schema as OpenAPIV3_1.SchemaObject;
        expect(schema.required, `${operationKey} ${status}`).toEqual(['error', 'message']);
      }
    }
  });

  it('patient communication: consumers, thread replies, push receipts and deep links; their errors', async () => {
    // Issue 15: the assistant registers a patient staff may message, brings back replies, reports
    // push receipts and checks telehealth links.
    const consumer = 'PUT /api/v1/consumers/{id}';
    const patient = { tenant: 'acme-clinic', name: { given: 'Sam' }, email: 'sam@patients.test' };
    await call(consumer, 200, { url: '/api/v1/consumers/demo-sam', payload: patient });
    await call(consumer, 409, {
      url: '/api/v1/consumers/demo-sam',
      payload: { ...patient, tenant: 'other-clinic' },
    });
    await call(consumer, 400, { url: '/api/v1/consumers/demo-sam', payload: { tenant: '' } });

    const medical = (await tokenForRoles(t, 'meera@example.test', ['medical'])).token;
    const staff = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${medical}` },
        payload,
      });
    const thread = (
      await staff('/internal/messaging/groups/_upsert', {
        content: 'Your results are in.',
        customer: { system: 'email', code: 'id', value: 'sam@patients.test' },
      })
    ).json();
    const reply = 'POST /api/v1/threads/{id}/messages';
    const url = `/api/v1/threads/${thread.id}/messages`;
    await call(reply, 201, { url, payload: { id: 'r-1', content: 'Thanks' } });
    await call(reply, 200, { url, payload: { id: 'r-1', content: 'Thanks' } });
    await call(reply, 404, { payload: { id: 'r-2', content: 'Thanks' } });
    await call(reply, 400, { url, payload: { id: 'r-2', content: '  ' } });
    await t.app.inject({
      method: 'DELETE',
      url: `/internal/messaging/groups/${thread.id}`,
      headers: { authorization: `Bearer ${medical}` },
    });
    await call(reply, 409, { url, payload: { id: 'r-3', content: 'Hello?' } });

    const queued = (
      await staff('/internal/consumers/demo-sam/communications/_test', { medium: 'push' })
    ).json();
    const receipt = 'POST /api/v1/notifications/{id}/receipt';
    await call(receipt, 200, {
      url: `/api/v1/notifications/${queued.id}/receipt`,
      payload: { devices: 1 },
    });
    await call(receipt, 404, { payload: { devices: 1 } });
    await call(receipt, 400, {
      url: `/api/v1/notifications/${queued.id}/receipt`,
      payload: { devices: -1 },
    });

    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/conversations/conv-deep-link',
      headers: { authorization: `Bearer ${key}` },
      payload: { tenant: 'acme-clinic', consumer: { id: 'demo-sam', name: { given: 'Sam' } } },
    });
    const link = (
      await staff('/internal/deep-links', {
        purpose: 'telehealth.conversation',
        conversationId: 'conv-deep-link',
        expiresInMinutes: 60,
      })
    ).json();
    const verify = 'POST /api/v1/deep-links/_verify';
    await call(verify, 200, { payload: { token: link.token, purpose: 'telehealth.conversation' } });
    await call(verify, 403, { payload: { token: link.token, purpose: 'telehealth.appointment' } });
    await call(verify, 400, { payload: { token: link.token } });
  });

  describe('429 and 500, on a server of their own', () => {
    let limited: TestApp;
    beforeAll(async () => {
      // One request a minute for each key: the second call of a key is refused.
      limited = await startTestApp({ env: { API_RATE_LIMIT: '1' } });
    });
    afterAll(async () => {
      await limited?.close();
    });

    it('every operation answers 429 once its key spent its budget, and 500 when the database fails', async () => {
      const admin = (await tokenForRoles(limited, 'ada@example.test', ['admin'])).token;
      const created = await limited.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'limited' },
      });
      const limitedKey: string = created.json().key;
      const first = await limited.app.inject({
        method: 'GET',
        url: '/api/v1/events',
        headers: { authorization: `Bearer ${limitedKey}` },
      });
      expect(first.statusCode).toBe(200);
      const send = (operationKey: string, auth: string) => {
        const [method, path] = operationKey.split(' ') as [Method, string];
        return limited.app.inject({
          method,
          url: sampleUrl(path),
          headers: { authorization: `Bearer ${auth}` },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
      };
      for (const operationKey of operations.keys()) {
        const response = await send(operationKey, limitedKey);
        expect(response.statusCode, `${operationKey}: ${response.body}`).toBe(429);
        conforms(operationKey, response);
      }
      // The keys' table gone: every operation fails on our side, and says so in the error shape.
      await sql`alter table api_keys rename to api_keys_gone`.execute(limited.database.db);
      try {
        for (const operationKey of operations.keys()) {
          const response = await send(operationKey, `ldk_0000beef_${'x'.repeat(43)}`);
          expect(response.statusCode, `${operationKey}: ${response.body}`).toBe(500);
          conforms(operationKey, response);
          expect(response.json().message).not.toMatch(/api_keys/);
        }
      } finally {
        await sql`alter table api_keys_gone rename to api_keys`.execute(limited.database.db);
      }
    });
  });

  it('every operation of patient data answers 503 when its audit entry cannot be written', async () => {
    const dir = t.app.auditJournal.dir;
    // After a flush no segment is open: the next entry must open one in the folder, now a file.
    await t.app.auditJournal.flush();
    fs.renameSync(dir, `${dir}-away`);
    fs.writeFileSync(dir, '');
    let called = 0;
    try {
      for (const [operationKey, operation] of operations) {
        if (!operation.responses?.['503']) {
          continue;
        }
        const [method, path] = operationKey.split(' ') as [Method, string];
        const response = await t.app.inject({
          method,
          url: sampleUrl(path),
          headers: { authorization: `Bearer ${key}` },
          ...(method === 'GET' ? {} : { payload: {} }),
        });
        expect(response.statusCode, `${operationKey}: ${response.body}`).toBe(503);
        expect(response.json().message).toMatch(/audit journal .* cannot be written/);
        conforms(operationKey, response);
        called++;
      }
    } finally {
      fs.rmSync(dir);
      fs.renameSync(`${dir}-away`, dir);
    }
    expect(called).toBeGreaterThanOrEqual(5);
  });

  it('every status each operation declares was met in a real call', () => {
    expect(operations.size).toBeGreaterThanOrEqual(12);
    for (const [operationKey, operation] of operations) {
      const declared = Object.keys(operation.responses ?? {}).map(Number);
      expect(
        [...(seen.get(operationKey) ?? [])].sort(),
        `${operationKey} declares ${declared.join(', ')}`,
      ).toEqual([...declared].sort());
    }
  });
});
