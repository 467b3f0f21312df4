import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { createInProcessBus } from '../../platform/bus.ts';
import { freePort, startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { API_KEY_CACHE_TTL_MS, createApiKeysService } from './api-keys.ts';

/**
 * API keys checked from memory (bench/README.md, cluster: the key was read from the database on
 * every `/api/v1` call): a key once read is not read again while fresh, and a revocation still
 * takes effect at once on every node, through the bus.
 */
describe('the API key cache: no database read per call, revocation at once on every node', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let admin: string;
  const bus = createInProcessBus();

  beforeAll(async () => {
    a = await startTestApp({ bus });
    // Node B: a second app on the same database and the same bus, as a second process would be.
    b = await buildApp({ config: a.config, database: a.database, logger: false, bus });
    await b.listen({ port: await freePort(), host: '127.0.0.1' });
    admin = (await tokenForRoles(a, 'ada@keys.test', ['admin'])).token;
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await bus.close();
  });

  const newKey = async (name: string) => {
    const created = await a.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name },
    });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: string; key: string }>();
  };
  /** A call of the API with the key, on a node: its status. */
  const call = async (node: FastifyInstance, key: string) =>
    (
      await node.inject({
        method: 'GET',
        url: '/api/v1/events',
        headers: { authorization: `Bearer ${key}` },
      })
    ).statusCode;

  it('a key once read is answered from memory; a change behind the bus is seen when that memory ends', async () => {
    const { id, key } = await newKey('memory');
    expect(await call(a.app, key)).toBe(200);
    // Two more nodes' memories: one kept a minute, one a few milliseconds.
    const long = createApiKeysService(a.database.db, { bus, ttlMs: 60_000 });
    const brief = createApiKeysService(a.database.db, { bus, ttlMs: 20 });
    await long.authenticate(`Bearer ${key}`);
    await brief.authenticate(`Bearer ${key}`);
    // Revoked in the database without a word on the bus: the nodes still trust their memory,
    // which shows the calls did not read the database.
    await a.database.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .execute();
    await expect(long.authenticate(`Bearer ${key}`)).resolves.toMatchObject({ id });
    // Once its memory of the key ends, the key is read again, and refused.
    await new Promise((resolve) => setTimeout(resolve, 40));
    await expect(brief.authenticate(`Bearer ${key}`)).rejects.toThrow(/was revoked on /);
    expect(API_KEY_CACHE_TTL_MS).toBeLessThanOrEqual(1_000);
    long.close();
    brief.close();
  });

  it('a key revoked on node A is refused on node B at its next call', async () => {
    const { id, key } = await newKey('two nodes');
    // Both nodes hold the key in memory, and a third whose memory would last a minute.
    expect(await call(a.app, key)).toBe(200);
    expect(await call(b, key)).toBe(200);
    const long = createApiKeysService(a.database.db, { bus, ttlMs: 60_000 });
    await long.authenticate(`Bearer ${key}`);
    const revoked = await a.app.inject({
      method: 'DELETE',
      url: `/internal/integration/api-keys/${id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(revoked.statusCode).toBe(200);
    // The in-process bus delivers after the publisher's code continues, as Redis would.
    await new Promise((resolve) => setImmediate(resolve));
    const onB = await b.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(onB.statusCode).toBe(401);
    expect(onB.json<{ message: string }>().message).toMatch(/was revoked on /);
    expect(await call(a.app, key)).toBe(401);
    // Only the bus could have told the third one within its minute.
    await expect(long.authenticate(`Bearer ${key}`)).rejects.toThrow(/was revoked on /);
    long.close();
  });

  it('the secret is checked on every call: a known prefix with another secret is refused', async () => {
    const { key } = await newKey('secret');
    expect(await call(a.app, key)).toBe(200);
    const forged = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expect(await call(a.app, forged)).toBe(401);
    expect(await call(a.app, key)).toBe(200);
  });

  it('holds at most its bound of keys, and never an unknown prefix', async () => {
    const service = createApiKeysService(a.database.db, { bus, maxEntries: 2 });
    const keys = [await newKey('k1'), await newKey('k2'), await newKey('k3')];
    for (const { key } of keys) {
      await service.authenticate(`Bearer ${key}`);
    }
    await expect(service.authenticate('Bearer ldk_00000000_' + 'x'.repeat(43))).rejects.toThrow(
      /not valid/,
    );
    expect(service.cachedCount()).toBe(2);
    service.close();
  });
});
