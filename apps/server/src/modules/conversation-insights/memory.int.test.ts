import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';

type Vertex = {
  id: string;
  kind: string;
  label: string;
  presence?: string | null;
  onset?: string | null;
  source: string;
};
type Edge = { id: string; from: string; to: string; rel: string };

/**
 * The conversation memory (issue 14): the assistant records a conversation, a technician
 * annotates, the assistant hands it over and answers the portal's memory question; a medical
 * reviewer reads the graph and the composed summary, and every read is in the audit trail.
 */
describe('conversation memory and the current clinical summary', () => {
  let t: TestApp;
  let medical: { token: string; userId: string };
  let annotator: string;
  let key: string;

  const get = (url: string, token = medical.token, tenant?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, ...(tenant ? { 'x-tenant-id': tenant } : {}) },
    });
  const v1 = (method: 'PUT' | 'POST' | 'GET', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      headers: { authorization: `Bearer ${key}` },
    });
  const memoryOf = async (id: string) => {
    const response = await get(`/internal/conversations/${id}/memory`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ vertices: Vertex[]; edges: Edge[]; version: number }>();
  };
  const auditRows = async (action: string, resourceId: string) =>
    (
      await sql<{ actor_email: string | null; outcome: string; status_code: number }>`
        select actor_email, outcome, status_code from audit_events
        where action = ${action} and resource_id = ${resourceId} order by id`.execute(t.database.db)
    ).rows;

  beforeAll(async () => {
    t = await startTestApp();
    medical = await tokenForRoles(t, 'meg@example.test', ['medical']);
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      payload: { name: 'memory-test' },
      headers: { authorization: `Bearer ${admin}` },
    });
    key = created.json<{ key: string }>().key;
    // First, the assistant registers Wren's conversation and what was said.
    expect(
      (
        await v1('PUT', '/api/v1/conversations/mem-1', {
          tenant: 'acme-clinic',
          consumer: { id: 'patient-mem-1', name: { given: 'Wren', family: 'Okafor' } },
        })
      ).statusCode,
    ).toBe(201);
    for (const [id, direction, content] of [
      ['q1', 'OUT', 'What brings you here today?'],
      ['m1', 'IN', 'I have had a pounding headache and a fever since yesterday. No cough.'],
    ] as const) {
      const said = await v1('POST', '/api/v1/conversations/mem-1/messages', {
        id,
        direction,
        content,
      });
      expect(said.statusCode, said.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('holds the patient, findings with presence and onset, conditions considered and KB relations', async () => {
    const { vertices, edges } = await memoryOf('mem-1');
    const byId = new Map(vertices.map((v) => [v.id, v]));
    expect(byId.get('patient')).toMatchObject({ kind: 'patient', label: 'Wren Okafor' });
    expect(byId.get('finding:LD:throbbing-headache')).toMatchObject({
      kind: 'finding',
      presence: 'endorse',
      onset: 'since yesterday',
      source: 'patient',
    });
    expect(byId.get('finding:LD:fever')).toMatchObject({ presence: 'endorse' });
    expect(byId.get('finding:LD:cough')).toMatchObject({ presence: 'deny' });
    const considered = vertices.filter((v) => v.kind === 'condition');
    expect(considered.length).toBeGreaterThan(0);
    expect(edges).toContainEqual(
      expect.objectContaining({ from: 'patient', to: 'finding:LD:cough', rel: 'denies' }),
    );
    // The knowledge base's relation between a condition considered and a finding reported.
    expect(edges.some((e) => e.from.startsWith('condition:') && e.to.startsWith('finding:'))).toBe(
      true,
    );
    for (const e of edges) {
      expect(byId.has(e.from) && byId.has(e.to), e.id).toBe(true);
    }
  });

  it("takes in a technician's annotation and an answer once its job completed", async () => {
    const before = await memoryOf('mem-1');
    // A federated annotation job of the conversation, completed by a technician.
    await sql`insert into jobs (queue, type, tenant, payload, state, result, completed_at)
      values ('federated', 'message.annotation.job', 'acme-clinic',
        ${JSON.stringify({
          metadata: { xdhconvid: 'mem-1', xdhmessageid: 'm2' },
          slot: { code: 'associated_sx' },
          slotSpecification: { code: 'associated_sx', short_description: 'Associated symptoms' },
        })}, 'completed',
        ${JSON.stringify({
          type: 'message.annotation',
          data: { entities: [{ start: 0, end: 6, extract: 'nausea', category: 'associated_sx' }] },
        })}, now())`.execute(t.database.db);
    const after = await memoryOf('mem-1');
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.vertices).toContainEqual(
      expect.objectContaining({
        id: 'finding:LD:nausea',
        presence: 'endorse',
        source: 'technician',
      }),
    );
    expect(after.vertices).toContainEqual(
      expect.objectContaining({
        id: 'answer:associated_sx',
        kind: 'answer',
        label: 'Associated symptoms: nausea',
      }),
    );
    // Read again, nothing new: the memory stays as it is.
    expect((await memoryOf('mem-1')).version).toBe(after.version);
  });

  it("adds the assistant's answer to POST …/_memory, and the handover", async () => {
    const asked = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/conversations/mem-1/_memory',
      headers: { authorization: `Bearer ${medical.token}`, 'x-tenant-id': 'acme-clinic' },
    });
    const polled = await v1('GET', '/api/v1/requests?wait=5');
    const request = polled.json<{ requests: { id: string }[] }>().requests[0];
    expect(request).toBeDefined();
    const answered = await v1('POST', `/api/v1/requests/${request?.id ?? ''}/answer`, {
      answer: { conversationId: 'mem-1', slots: { chief_complaints: 'pounding headache' } },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await asked).statusCode).toBe(200);
    const handover = await v1('POST', '/api/v1/conversations/mem-1/handover', {
      reason: 'asks for a person',
    });
    expect(handover.statusCode).toBe(200);

    const { vertices, edges } = await memoryOf('mem-1');
    expect(vertices).toContainEqual(
      expect.objectContaining({ id: 'answer:chief_complaints', source: 'assistant' }),
    );
    expect(vertices).toContainEqual(
      expect.objectContaining({ id: 'handover', label: 'Handed over: asks for a person' }),
    );
    expect(edges).toContainEqual(
      expect.objectContaining({
        from: 'answer:chief_complaints',
        to: 'finding:LD:throbbing-headache',
      }),
    );
  });

  it('composes the current summary from the memory, marked as not reviewed', async () => {
    const url = '/internal/intelligence/conversations/mem-1/clinical_summaries/_current';
    const response = await get(url, medical.token, 'acme-clinic');
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<{
      reviewed: boolean;
      source: string;
      document: { sections: { id: string; content: string }[] };
    }>();
    expect(summary).toMatchObject({ reviewed: false, source: 'memory', reviewedBy: null });
    const text = summary.document.sections.map((s) => s.content).join('\n');
    expect(text).toContain('not reviewed');
    expect(text).toContain('Patient: Wren Okafor.');
    expect(text).toMatch(/Reports .*headache \(since yesterday\)/);
    expect(text).toContain('Denies cough.');
    expect(text).toContain('Handed over: asks for a person.');
    // X-Tenant-ID is checked: missing is a 400, another tenant's is not found.
    const missing = await get(url);
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ message: string }>().message).toContain('x-tenant-id');
    const other = await get(url, medical.token, 'globex');
    expect(other.statusCode).toBe(404);
    expect(other.json<{ message: string }>().message).toBe(
      "Conversation not found - no conversation 'mem-1' in the tenant globex",
    );
  });

  it('answers unknown and malformed ids and other tenants clearly, and audits every read', async () => {
    const unknown = await get('/internal/conversations/nope-1/memory');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe(
      "Conversation not found - no conversation with the id 'nope-1'",
    );
    expect((await get('/internal/conversations/a%20b/memory')).statusCode).toBe(400);
    expect((await get('/internal/conversations/mem-1/memory?s=0')).statusCode).toBe(400);
    const foreign = await get('/internal/conversations/mem-1/memory', medical.token, 'globex');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('acme-clinic');
    expect(foreign.body).not.toContain('Wren');

    const reads = await auditRows('conversation.memory.read', 'mem-1');
    expect(reads).toContainEqual({
      actor_email: 'meg@example.test',
      outcome: 'success',
      status_code: 200,
    });
    expect(reads).toContainEqual({
      actor_email: 'meg@example.test',
      outcome: 'failure',
      status_code: 404,
    });
    expect(await auditRows('conversation.memory.read', 'nope-1')).toHaveLength(1);
  });

  it('lets only patient:conversations:read open a conversation, and audits the refusal', async () => {
    const refused = await get('/internal/conversations/mem-1/memory', annotator);
    expect(refused.statusCode).toBe(403);
    const summary = await get(
      '/internal/intelligence/conversations/mem-1/clinical_summaries/_current',
      annotator,
      'acme-clinic',
    );
    expect(summary.statusCode).toBe(403);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from audit_events
      where action = 'request.refused' and actor_email = 'ann@example.test'`.execute(t.database.db);
    expect(rows[0]?.n).toBeGreaterThanOrEqual(2);
    // The access log shows who read it.
    const log = await get('/internal/conversations/mem-1/_reads');
    expect(log.statusCode).toBe(200);
    expect(log.json<{ items: { actorEmail: string; action: string }[] }>().items).toContainEqual(
      expect.objectContaining({
        actorEmail: 'meg@example.test',
        action: 'conversation.memory.read',
      }),
    );
  });

  it('keeps a restricted conversation from whoever lacks jobs:exception:restricted', async () => {
    await v1('PUT', '/api/v1/conversations/mem-secret', {
      tenant: 'acme-clinic',
      consumer: { id: 'patient-mem-secret', name: { given: 'Rangi', family: 'Staff' } },
    });
    await v1('POST', '/api/v1/conversations/mem-secret/handover', {
      reason: 'member of staff',
      queue: 'exceptions-restricted',
    });
    const refused = await get('/internal/conversations/mem-secret/memory');
    expect(refused.statusCode).toBe(403);
    expect(await auditRows('conversation.memory.read', 'mem-secret')).toEqual([
      expect.objectContaining({ outcome: 'denied', status_code: 403 }),
    ]);
    const list = await get('/internal/intelligence/demo/conversations');
    const ids = list
      .json<{ items: { conversationId: string }[] }>()
      .items.map((i) => i.conversationId);
    expect(ids).toContain('mem-1');
    expect(ids).not.toContain('mem-secret');
  });
});
