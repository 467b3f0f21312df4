import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { ADMIN_CLOSE_CODE } from '@loopdesk/contracts/realtime.ts';
import { buildApp } from '../../app.ts';
import { createInProcessBus } from '../bus.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createUsersRepository } from '../../modules/users/repository.ts';
import { freePort, startTestApp, type TestApp } from '../../test/harness.ts';
import {
  freshPostgresDatabase,
  startServerProcess,
  type ServerProcess,
} from '../../test/processes.ts';
import { openSocket } from '../../test/socket-client.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { ROLES_CHANGED_MESSAGE } from './guard.ts';
import { createSessionStore } from './sessions.ts';
import { createTokenService } from './tokens.ts';
import type { FastifyInstance } from 'fastify';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Logs out with the refresh token as the browser's cookie would carry it. */
async function logout(baseUrl: string, refreshToken: string): Promise<number> {
  const response = await fetch(`${baseUrl}/auth/logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `loopdesk_refresh=${refreshToken}` },
    body: '{}',
  });
  return response.status;
}

/** A user with these roles, a session with its refresh token, and an access token for it. */
async function signedIn(
  database: { db: DatabaseHandle['db'] },
  secret: string,
  email: string,
  roles: Role[],
): Promise<{ token: string; refreshToken: string; userId: string; sessionId: string }> {
  const user = await createUsersRepository(database.db).upsertOnSignIn({
    email,
    displayName: null,
    photoUrl: null,
    initialRoles: roles,
  });
  const store = createSessionStore(database.db, {
    idleMs: 3_600_000,
    absoluteMs: 3_600_000,
    reuseGraceMs: 0,
  });
  const { sessionId, refreshToken } = await store.create({
    userId: user.id,
    ip: null,
    userAgent: null,
  });
  const token = await createTokenService(secret, 3600).sign({
    sub: user.id,
    sid: sessionId,
    email,
    roles,
  });
  return { token, refreshToken, userId: user.id, sessionId };
}

describe('the session cache: no database read per request, revocation at once', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let bBaseUrl: string;
  const bus = createInProcessBus();

  beforeAll(async () => {
    a = await startTestApp({ listen: true, bus });
    // Node B: a second app on the same database and the same bus, as a second process would be.
    b = await buildApp({ config: a.config, database: a.database, logger: false, bus });
    const port = await freePort();
    await b.listen({ port, host: '127.0.0.1' });
    bBaseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await bus.close();
  });

  it('a session once read is answered from memory: a change behind the bus is not read again', async () => {
    const ann = await signedIn(a.database, a.config.sessionSecret, 'ann@cache.test', ['annotator']);
    const first = await a.app.inject({ url: '/internal/users/me', headers: bearer(ann.token) });
    expect(first.statusCode).toBe(200);
    // Revoked in the database without a word on the bus: the node still trusts its memory, which
    // shows the request did not read the database (the safety TTL bounds this case).
    await a.database.db
      .updateTable('auth_sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'behind the bus' })
      .where('id', '=', ann.sessionId)
      .execute();
    const second = await a.app.inject({ url: '/internal/users/me', headers: bearer(ann.token) });
    expect(second.statusCode).toBe(200);
    // Through the store (what logout does), the bus tells every node and the next request is refused.
    await a.app.sessions.revoke(ann.sessionId, 'test');
    const third = await a.app.inject({ url: '/internal/users/me', headers: bearer(ann.token) });
    expect(third.statusCode).toBe(401);
  });

  it('logout on node A is refused on node B at its next request', async () => {
    const abe = await signedIn(a.database, a.config.sessionSecret, 'abe@cache.test', ['approver']);
    // Both nodes hold the session in memory.
    expect(
      (await a.app.inject({ url: '/internal/users/me', headers: bearer(abe.token) })).statusCode,
    ).toBe(200);
    expect(
      (await b.inject({ url: '/internal/users/me', headers: bearer(abe.token) })).statusCode,
    ).toBe(200);
    expect(await logout(a.baseUrl, abe.refreshToken)).toBe(204);
    const onB = await fetch(`${bBaseUrl}/internal/users/me`, { headers: bearer(abe.token) });
    expect(onB.status).toBe(401);
    expect(((await onB.json()) as { message: string }).message).toBe(
      'The session behind this access token has ended: sign in again.',
    );
    const onA = await a.app.inject({ url: '/internal/users/me', headers: bearer(abe.token) });
    expect(onA.statusCode).toBe(401);
  });

  it('a role change on node A takes effect at once on node B, on REST and on sockets', async () => {
    const erin = await tokenForRoles(a, 'erin@cache.test', ['annotator', 'medical']);
    const admin = await tokenForRoles(a, 'ada@cache.test', ['admin']);
    expect(
      (await b.inject({ url: '/internal/users/me', headers: bearer(erin.token) })).statusCode,
    ).toBe(200);
    const exceptions = await openSocket(bBaseUrl, '/ws/exceptions', erin.token);
    const key = Buffer.from(erin.userId).toString('base64url');
    const changed = await a.app.inject({
      method: 'PATCH',
      url: `/internal/users/${key}`,
      headers: bearer(admin.token),
      payload: { permissions: { roles: ['annotator'] } },
    });
    expect(changed.statusCode).toBe(200);
    // On A, the node that changed the roles, before any message travels.
    const onA = await a.app.inject({ url: '/internal/users/me', headers: bearer(erin.token) });
    expect(onA.json<{ message: string }>().message).toBe(ROLES_CHANGED_MESSAGE);
    const onB = await b.inject({ url: '/internal/users/me', headers: bearer(erin.token) });
    expect(onB.statusCode).toBe(401);
    expect(onB.json<{ message: string }>().message).toBe(ROLES_CHANGED_MESSAGE);
    expect((await exceptions.closed).code).toBe(ADMIN_CLOSE_CODE);
  });

  it('a reused refresh token ends the session on every node', async () => {
    const lee = await signedIn(a.database, a.config.sessionSecret, 'lee@cache.test', ['annotator']);
    expect(
      (await b.inject({ url: '/internal/users/me', headers: bearer(lee.token) })).statusCode,
    ).toBe(200);
    const rotated = await a.app.sessions.refresh(lee.refreshToken);
    expect(rotated.ok).toBe(true);
    // The first token again, outside the grace window of two tabs (10 s): the session ends.
    await a.database.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date(Date.now() - 60_000) })
      .where('session_id', '=', lee.sessionId)
      .where('used_at', 'is not', null)
      .execute();
    const reused = await a.app.sessions.refresh(lee.refreshToken);
    expect(reused.ok).toBe(false);
    expect(
      (await b.inject({ url: '/internal/users/me', headers: bearer(lee.token) })).statusCode,
    ).toBe(401);
  });

  it('holds at most its bound of sessions', () => {
    expect(a.app.sessions.cachedCount()).toBeLessThanOrEqual(10_000);
    expect(a.app.sessions.cachedCount()).toBeGreaterThan(0);
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!adminUrl || !redisUrl)(
  'two server processes on Redis: logout on A refused on B',
  () => {
    const secret = randomBytes(32).toString('hex');
    let database: { url: string; drop(): Promise<void> };
    let handle: DatabaseHandle;
    let nodeA: ServerProcess;
    let nodeB: ServerProcess;

    beforeAll(async () => {
      database = await freshPostgresDatabase(adminUrl ?? '', 'loopdesk_session_cache');
      handle = await openDatabase({
        databaseUrl: database.url,
        pgliteDataDir: 'memory://',
        webhookDeliveries: false,
      });
      await migrateToLatest(handle);
      const env = { DATABASE_URL: database.url, REDIS_URL: redisUrl ?? '', SESSION_SECRET: secret };
      [nodeA, nodeB] = await Promise.all([
        startServerProcess(await freePort(), { ...env, NODE_ID: 'node-a' }),
        startServerProcess(await freePort(), { ...env, NODE_ID: 'node-b' }),
      ]);
    }, 120_000);
    afterAll(async () => {
      nodeA.child.kill('SIGTERM');
      nodeB.child.kill('SIGTERM');
      await Promise.all([nodeA.exited, nodeB.exited]);
      await handle.close();
      await database.drop();
    });

    it('node B refuses the access token within a second of the logout on node A', async () => {
      const ann = await signedIn(handle, secret, 'ann@cluster-cache.test', ['annotator']);
      const me = (base: string) =>
        fetch(`${base}/internal/users/me`, { headers: bearer(ann.token) });
      expect((await me(nodeA.baseUrl)).status).toBe(200);
      expect((await me(nodeB.baseUrl)).status).toBe(200);
      expect(await logout(nodeA.baseUrl, ann.refreshToken)).toBe(204);
      expect((await me(nodeA.baseUrl)).status).toBe(401);
      // The message travels through Redis: poll B until it refuses, for at most a second.
      let status = 200;
      for (let i = 0; i < 20 && status === 200; i++) {
        status = (await me(nodeB.baseUrl)).status;
        if (status === 200) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(status).toBe(401);
    });
  },
);
