import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import {
  ADMIN_CLOSE_CODE,
  SESSION_ENDED_CLOSE_CODE,
  SESSION_ENDED_MESSAGE,
} from '@loopdesk/contracts/realtime.ts';
import { buildApp } from '../../app.ts';
import { createInProcessBus } from '../bus.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { createUsersRepository } from '../../modules/users/repository.ts';
import { freePort, startTestApp, type TestApp } from '../../test/harness.ts';
import { startTwoNodes, type ServerProcess, type TwoNodes } from '../../test/processes.ts';
import { openSocket, type TestSocket } from '../../test/socket-client.ts';
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

/**
 * A socket the node's hub has attached, so that a session end can find it. (Node B shares node
 * A's configuration, so its frames name A's origin: the test waits on the hub, not on a frame.)
 */
async function attached(
  node: FastifyInstance,
  baseUrl: string,
  path: string,
  token: string,
): Promise<TestSocket> {
  const before = new Set([...node.hub.sockets()].map((conn) => conn.socket));
  const socket = await openSocket(baseUrl, path, token);
  for (let i = 0; i < 100; i++) {
    if ([...node.hub.sockets()].some((conn) => !before.has(conn.socket))) {
      return socket;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the socket on ${path} was not attached within 5 s`);
}

/** How the socket closed, within 5 s (a socket left open fails the test rather than hang). */
async function closedAtOnce(socket: TestSocket): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      socket.closed,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('the socket was not closed within 5 s')), 5_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the socket is still open a moment after the others closed (the close is not blanket). */
async function stillOpen(socket: TestSocket): Promise<boolean> {
  const outcome = await Promise.race([
    socket.closed.then(() => 'closed' as const),
    new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 300)),
  ]);
  return outcome === 'open';
}

describe('the session cache: no database read per request, revocation at once', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let bBaseUrl: string;
  const bus = createInProcessBus();

  beforeAll(async () => {
    // Heartbeats a minute apart: the periodic check of sessions behind sockets (every heartbeat)
    // does not run during a test, so a socket closed here was closed by the bus.
    a = await startTestApp({ listen: true, bus, env: { SOCKET_HEARTBEAT_SECONDS: '60' } });
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

  it('a logout on node A closes the sockets of that session on both nodes with 4001; other sessions keep theirs', async () => {
    const ivy = await signedIn(a.database, a.config.sessionSecret, 'ivy@cache.test', [
      'annotator',
      'medical',
    ]);
    const other = await signedIn(a.database, a.config.sessionSecret, 'olga@cache.test', [
      'annotator',
    ]);
    // Ivy works the federated queue through node A and the exception desk through node B; Olga,
    // another technician, works through node A.
    const federated = await attached(a.app, a.baseUrl, '/ws/federated', ivy.token);
    const exceptions = await attached(b, bBaseUrl, '/ws/exceptions', ivy.token);
    const olga = await attached(a.app, a.baseUrl, '/ws/federated', other.token);
    expect(await logout(a.baseUrl, ivy.refreshToken)).toBe(204);
    expect(await closedAtOnce(federated)).toEqual({
      code: SESSION_ENDED_CLOSE_CODE,
      reason: SESSION_ENDED_MESSAGE,
    });
    expect(await closedAtOnce(exceptions)).toEqual({
      code: SESSION_ENDED_CLOSE_CODE,
      reason: SESSION_ENDED_MESSAGE,
    });
    expect(await stillOpen(olga)).toBe(true);
    // A new socket with the old access token is refused.
    await expect(openSocket(bBaseUrl, '/ws/federated', ivy.token)).rejects.toThrow(
      'refused with 401',
    );
    olga.ws.close();
    await olga.closed;
  });

  it('a session found idle at refresh ends, and its sockets close on both nodes', async () => {
    const ida = await signedIn(a.database, a.config.sessionSecret, 'ida@cache.test', [
      'annotator',
      'medical',
    ]);
    const federated = await attached(a.app, a.baseUrl, '/ws/federated', ida.token);
    const exceptions = await attached(b, bBaseUrl, '/ws/exceptions', ida.token);
    // Ida's last refresh was 31 minutes ago (the idle timeout is 30): her next one ends it.
    await a.database.db
      .updateTable('auth_sessions')
      .set({ last_refreshed_at: new Date(Date.now() - 31 * 60_000) })
      .where('id', '=', ida.sessionId)
      .execute();
    const outcome = await b.sessions.refresh(ida.refreshToken);
    expect(outcome).toMatchObject({
      ok: false,
      reason: expect.stringContaining('without activity'),
    });
    expect((await closedAtOnce(federated)).code).toBe(SESSION_ENDED_CLOSE_CODE);
    expect((await closedAtOnce(exceptions)).code).toBe(SESSION_ENDED_CLOSE_CODE);
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
    expect((await closedAtOnce(exceptions)).code).toBe(ADMIN_CLOSE_CODE);
  });

  it('a reused refresh token ends the session on every node, and closes its sockets', async () => {
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
    const onB = await attached(b, bBaseUrl, '/ws/federated', lee.token);
    const reused = await a.app.sessions.refresh(lee.refreshToken);
    expect(reused.ok).toBe(false);
    expect(await closedAtOnce(onB)).toEqual({
      code: SESSION_ENDED_CLOSE_CODE,
      reason: SESSION_ENDED_MESSAGE,
    });
    expect(
      (await b.inject({ url: '/internal/users/me', headers: bearer(lee.token) })).statusCode,
    ).toBe(401);
  });

  it('holds at most its bound of sessions', () => {
    expect(a.app.sessions.cachedCount()).toBeLessThanOrEqual(10_000);
    expect(a.app.sessions.cachedCount()).toBeGreaterThan(0);
  });
});

describe('a session that times out while its socket is open', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Heartbeats every 2 seconds: sessions behind sockets are checked as often. (Shorter, a test
    // client starved by a loaded machine misses its pongs and is cut.)
    app = await startTestApp({ listen: true, env: { SOCKET_HEARTBEAT_SECONDS: '2' } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('reaching its absolute lifetime with nobody refreshing, the socket closes with 4001 at the next check', async () => {
    const max = await signedIn(app.database, app.config.sessionSecret, 'max@cache.test', [
      'annotator',
    ]);
    const socket = await attached(app.app, app.baseUrl, '/ws/federated', max.token);
    // Max's 12 hours run out while he waits for work; nothing refreshes or logs out, so no
    // message travels. The node's check reads the session again once its cache entry is older
    // than the cache's 5 seconds, and closes the socket.
    await app.database.db
      .updateTable('auth_sessions')
      .set({ absolute_expires_at: new Date(Date.now() - 1_000) })
      .where('id', '=', max.sessionId)
      .execute();
    expect(await socket.closed).toEqual({
      code: SESSION_ENDED_CLOSE_CODE,
      reason: SESSION_ENDED_MESSAGE,
    });
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!adminUrl || !redisUrl)(
  'two server processes on Redis: logout on A refused on B',
  () => {
    let cluster: TwoNodes | undefined;
    let handle: DatabaseHandle;
    let secret: string;
    let nodeA: ServerProcess;
    let nodeB: ServerProcess;

    beforeAll(async () => {
      cluster = await startTwoNodes({
        adminUrl: adminUrl ?? '',
        redisUrl: redisUrl ?? '',
        prefix: 'loopdesk_session_cache',
      });
      ({ handle, secret, nodeA, nodeB } = cluster);
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
    });

    it('node B refuses the access token and closes its socket within a second of the logout on node A', async () => {
      const ann = await signedIn(handle, secret, 'ann@cluster-cache.test', ['annotator']);
      const me = (base: string) =>
        fetch(`${base}/internal/users/me`, { headers: bearer(ann.token) });
      expect((await me(nodeA.baseUrl)).status).toBe(200);
      expect((await me(nodeB.baseUrl)).status).toBe(200);
      const socket = await openSocket(nodeB.baseUrl, '/ws/federated', ann.token);
      // Announced once node B attached it.
      await socket.next('technician.session.paused');
      const loggedOutAt = performance.now();
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
      const closed = await closedAtOnce(socket);
      const closeMs = performance.now() - loggedOutAt;
      console.info(
        `[drill] logout across processes: REST refused on B, socket on B closed ${closed.code} after ${closeMs.toFixed(0)} ms`,
      );
      expect(closed).toEqual({ code: SESSION_ENDED_CLOSE_CODE, reason: SESSION_ENDED_MESSAGE });
    });
  },
);
