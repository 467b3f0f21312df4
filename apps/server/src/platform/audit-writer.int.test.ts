import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { tokenForRoles } from '../test/tokens.ts';
import type { AuditEntry } from './audit.ts';
import { createAuditWriter } from './audit-writer.ts';

/**
 * The writer of the per-route patient-data entries (bench/audit.ts measures it). The story: many
 * requests append at once and each finds its own row, in fewer statements than entries; one entry
 * the database refuses fails alone; text of any kind is stored as given (NUL aside); and through
 * the app, the hottest read writes exactly one entry whether it finds the conversation or not,
 * concurrent reads each their own.
 */
describe('audit writer: each entry in the database before its caller goes on', () => {
  let t: TestApp;
  let key: string;
  let statements = 0;

  /** The audit lane, counting the statements that reach the database. */
  const countingLane = () =>
    new Proxy(t.database.auditPool, {
      get(target, property) {
        if (property === 'connect') {
          return async () => {
            const client = await target.connect();
            const query = client.query.bind(client) as (...a: unknown[]) => unknown;
            return Object.assign(Object.create(client) as pg.PoolClient, {
              query: (...args: unknown[]) => {
                statements += 1;
                return query(...args);
              },
              release: () => client.release(),
            });
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await tokenForRoles(t, 'writer-admin@example.test', ['admin']);
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { name: 'writer-test' },
    });
    key = created.json<{ key: string }>().key;
  });
  afterAll(async () => {
    await t.close();
  });

  const entry = (action: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
    action,
    outcome: 'success',
    resourceType: 'route',
    resourceId: 'GET /test',
    statusCode: 200,
    details: { params: { id: action } },
    ...extra,
  });
  const rowsOf = (requestId: string) =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('request_id', '=', requestId)
      .orderBy('id')
      .execute();

  it('appends 50 concurrent entries, each its own row, in fewer statements than entries', async () => {
    const writer = createAuditWriter({ auditPool: countingLane(), kind: t.database.kind });
    const requestId = randomUUID();
    statements = 0;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        writer.append(entry(`test.concurrent.${i}`), {
          ip: '10.0.0.1',
          userAgent: 'ua',
          requestId,
        }),
      ),
    );
    const rows = await rowsOf(requestId);
    expect(rows.map((r) => r.action).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `test.concurrent.${i}`).sort(),
    );
    expect(rows[0]).toMatchObject({ outcome: 'success', status_code: 200, ip: '10.0.0.1' });
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(50);
  });

  it('fails only the entry the database refuses when it came in a batch', async () => {
    const writer = createAuditWriter(t.database);
    const requestId = randomUUID();
    const origin = { ip: null, userAgent: null, requestId };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        writer.append(entry(`test.batch.${i}`, i === 5 ? { actorId: 'not-a-uuid' } : {}), origin),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i === 5 ? 'rejected' : 'fulfilled')),
    );
    const rows = await rowsOf(requestId);
    expect(rows.map((r) => r.action).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `test.batch.${i}`)
        .filter((a) => a !== 'test.batch.5')
        .sort(),
    );
  });

  it('stores quotes, backslashes, unicode and JSON as given, NUL and lone surrogates replaced', async () => {
    const writer = createAuditWriter(t.database);
    const requestId = randomUUID();
    const odd = `it's \\ "quoted" $1 $$ é 😀 \ud800 end${String.fromCharCode(0)}x`;
    // Two at once (a batch of literals) and one alone (on PostgreSQL the statement with parameters).
    await Promise.all([
      writer.append(entry('test.odd.1', { actorEmail: odd, details: { note: odd.slice(0, 20) } }), {
        ip: odd,
        userAgent: odd,
        requestId,
      }),
      writer.append(entry('test.odd.2', { actorEmail: odd }), {
        ip: null,
        userAgent: odd,
        requestId,
      }),
    ]);
    await writer.append(entry('test.odd.3', { resourceId: `x'); drop table audit_events; --` }), {
      ip: null,
      userAgent: odd,
      requestId,
    });
    const rows = await rowsOf(requestId);
    const stored = `it's \\ "quoted" $1 $$ é 😀 \ufffd end\ufffdx`;
    const one = rows.find((r) => r.action === 'test.odd.1');
    expect(one).toMatchObject({ actor_email: stored, ip: stored, user_agent: stored });
    expect(one?.details).toEqual({ note: odd.slice(0, 20) });
    expect(rows.find((r) => r.action === 'test.odd.2')?.actor_email).toBe(stored);
    expect(rows.find((r) => r.action === 'test.odd.3')).toMatchObject({
      resource_id: `x'); drop table audit_events; --`,
      user_agent: stored,
    });
  });

  /** A GET of the assistant's conversation read and its patient-data entries. */
  async function read(id: string) {
    const requestId = randomUUID();
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/conversations/${id}`,
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
    });
    await t.app.auditJournal.flush();
    const raw = (await rowsOf(requestId)).filter((r) => r.action === 'patient-data.read');
    const rows = await t.database.db
      .selectFrom('patient_data_audit')
      .selectAll()
      .where('request_id', '=', requestId)
      .execute();
    return { response, rows, raw };
  }

  it('writes exactly one entry for a read of the conversation, found or not', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/conversations/conv-writer',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        tenant: 'acme',
        botConversationId: 'bot-conv-writer',
        consumer: { id: 'patient-writer', name: { given: 'Maya', family: 'Okafor' } },
      },
    });
    expect(put.statusCode, put.body).toBe(201);

    const found = await read('conv-writer');
    expect(found.response.statusCode).toBe(200);
    expect(found.rows).toHaveLength(1);
    expect(found.rows[0]).toMatchObject({
      outcome: 'success',
      status_code: 200,
      resource_id: 'GET /api/v1/conversations/:id',
      details: { params: { id: 'conv-writer' }, apiKey: 'writer-test' },
    });

    const missing = await read('not-there');
    expect(missing.response.statusCode).toBe(404);
    expect(missing.rows).toHaveLength(1);
    expect(missing.rows[0]).toMatchObject({
      outcome: 'denied',
      status_code: 404,
      details: { params: { id: 'not-there' } },
    });
  });

  it('writes the entry once, with the true status, through the journal', async () => {
    const missing = await read('not-there');
    expect(missing.response.statusCode).toBe(404);
    expect(missing.raw).toHaveLength(1);
    expect(missing.raw[0]).toMatchObject({ outcome: 'denied', status_code: 404 });
    expect((missing.raw[0]?.details as { corrects?: unknown }).corrects).toBeUndefined();
    expect(missing.rows.map((r) => r.id)).toEqual([missing.raw[0]?.id]);
  });

  it('gives each of 20 concurrent reads its own entry', async () => {
    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => read(i % 2 ? 'conv-writer' : `missing-${i}`)),
    );
    for (const [i, { response, rows }] of reads.entries()) {
      expect(response.statusCode).toBe(i % 2 ? 200 : 404);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status_code).toBe(response.statusCode);
    }
  });

  it('answers when the database refuses the entry, and writes no other entry in its place', async () => {
    const refused = `refuse-${randomUUID()}`;
    // A check that refuses this one request id's entries (rows already stored are not checked).
    await sql
      .raw(
        `alter table audit_events add constraint audit_refusal_test
           check (request_id is distinct from '${refused}') not valid`,
      )
      .execute(t.database.db);
    try {
      // The entry is in the journal when the answer goes out; the flusher's insert is refused,
      // logged, and the entries beside it in the same segment still land.
      const accepted = randomUUID();
      for (const requestId of [refused, accepted]) {
        const answer = await t.app.inject({
          method: 'GET',
          url: '/api/v1/conversations/conv-writer',
          headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
        });
        expect(answer.statusCode).toBe(200);
      }
      await t.app.auditJournal.flush();
      expect(await rowsOf(refused)).toEqual([]);
      expect(await rowsOf(accepted)).toHaveLength(1);
    } finally {
      await sql
        .raw('alter table audit_events drop constraint audit_refusal_test')
        .execute(t.database.db);
    }
  });
});
