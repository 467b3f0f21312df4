import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_SESSION_MESSAGE } from '@loopdesk/contracts/realtime.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { openDatabase, type DatabaseHandle } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { createUsersRepository } from './modules/users/repository.ts';
import { createSessionStore } from './platform/auth/sessions.ts';
import { createTokenService } from './platform/auth/tokens.ts';
import { freePort } from './test/harness.ts';
import { freshPostgresDatabase, startServerProcess, type ServerProcess } from './test/processes.ts';
import { annotationData, openSocket } from './test/socket-client.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!adminUrl || !redisUrl)(
  'two server processes on one PostgreSQL and one Redis',
  () => {
    const secret = randomBytes(32).toString('hex');
    let database: { url: string; drop(): Promise<void> };
    let handle: DatabaseHandle;
    let nodeA: ServerProcess;
    let nodeB: ServerProcess;

    beforeAll(async () => {
      database = await freshPostgresDatabase(adminUrl ?? '', 'loopdesk_cluster');
      handle = await openDatabase({ databaseUrl: database.url, pgliteDataDir: 'memory://' });
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

    async function tokenFor(
      email: string,
      roles: Role[],
    ): Promise<{ token: string; userId: string }> {
      const user = await createUsersRepository(handle.db).upsertOnSignIn({
        email,
        displayName: null,
        photoUrl: null,
        initialRoles: roles,
      });
      const sessions = createSessionStore(handle.db, {
        idleMs: 3_600_000,
        absoluteMs: 3_600_000,
        reuseGraceMs: 0,
      });
      const { sessionId } = await sessions.create({ userId: user.id, ip: null, userAgent: null });
      const token = await createTokenService(secret, 3600).sign({
        sub: user.id,
        sid: sessionId,
        email,
        roles,
      });
      return { token, userId: user.id };
    }

    it('a job enqueued through node A reaches a technician connected to node B at once', async () => {
      // First, Cleo resumes on node B. Second, the assistant posts a job to node A.
      const cleo = await tokenFor('cleo@cluster.test', ['annotator']);
      const admin = await tokenFor('root@cluster.test', ['admin']);
      const onB = await openSocket(nodeB.baseUrl, '/ws/federated', cleo.token);
      onB.send('technician.session.activate');
      await onB.next('technician.session.waiting');
      const created = await fetch(`${nodeA.baseUrl}/internal/integration/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cluster test' }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      const posted = await fetch(`${nodeA.baseUrl}/api/v1/jobs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': 'cluster-1',
        },
        body: JSON.stringify({
          queue: 'federated',
          type: 'message.annotation.job',
          tenant: 'acme',
          data: { lastTurn: { content: 'My knee hurts' } },
        }),
      });
      expect(posted.status).toBe(201);
      const job = (await posted.json()) as { id: string };
      // Cleo receives it over node B within the time the assistant would notice.
      const received = await onB.next('message.annotation.job', 3000);
      expect(received.data).toMatchObject({
        jobId: job.id,
        lastTurn: { content: 'My knee hurts' },
      });
      onB.send('message.annotation', annotationData(job.id));
      await onB.next('technician.session.waiting');
      const read = await fetch(`${nodeA.baseUrl}/api/v1/jobs/${job.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(((await read.json()) as { state: string }).state).toBe('completed');
      onB.ws.close();
      await onB.closed;
    });

    it('a second session of the same technician on the other node is closed with 1008', async () => {
      const ann = await tokenFor('ann@cluster.test', ['annotator']);
      const onB = await openSocket(nodeB.baseUrl, '/ws/federated', ann.token);
      await onB.next('technician.session.paused');
      const onA = await openSocket(nodeA.baseUrl, '/ws/federated', ann.token);
      const closed = await onA.closed;
      expect(closed.code).toBe(1008);
      expect(DUPLICATE_SESSION_MESSAGE.startsWith(closed.reason)).toBe(true);
      onB.ws.close();
      await onB.closed;
    });

    it('an admin close on node A closes the socket held by node B', async () => {
      const ben = await tokenFor('ben@cluster.test', ['annotator']);
      const admin = await tokenFor('ada@cluster.test', ['admin']);
      const onB = await openSocket(nodeB.baseUrl, '/ws/federated', ben.token);
      await onB.next('technician.session.paused');
      const key = Buffer.from(ben.userId).toString('base64');
      const response = await fetch(`${nodeA.baseUrl}/internal/users/${key}/sessions/_close`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(response.status).toBe(200);
      expect((await onB.closed).code).toBe(4000);
    });
  },
);
