import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { createJobsRepository } from './modules/jobs/repository.ts';
import { createUsersRepository } from './modules/users/repository.ts';
import { createSessionStore } from './platform/auth/sessions.ts';
import { createTokenService } from './platform/auth/tokens.ts';
import { freePort } from './test/harness.ts';
import { freshPostgresDatabase, startServerProcess, type ServerProcess } from './test/processes.ts';
import { annotationData, openSocket, type TestSocket } from './test/socket-client.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)(
  'kill -9 of a server holding leased jobs and pending webhooks (PostgreSQL)',
  () => {
    const secret = randomBytes(32).toString('hex');
    let database: { url: string; drop(): Promise<void> };
    let handle: DatabaseHandle;
    let server: ServerProcess | undefined;
    // The assistant's webhook: refuses the first attempt of every event, so every event is
    // delivered again, and records every attempt.
    const deliveries: { id: string; status: number; body: string }[] = [];
    let webhook: Server;
    let webhookUrl = '';
    const env = () => ({
      DATABASE_URL: database.url,
      SESSION_SECRET: secret,
      JOB_LEASE_SECONDS: '5',
      LEASE_SWEEP_SECONDS: '0.5',
      SOCKET_HEARTBEAT_SECONDS: '0.5',
      ASSISTANT_WEBHOOK_URL: webhookUrl,
      ASSISTANT_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      WEBHOOK_POLL_MS: '100',
    });

    beforeAll(async () => {
      webhook = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const id = String(request.headers['webhook-id']);
          const status = deliveries.some((d) => d.id === id) ? 204 : 500;
          deliveries.push({ id, status, body });
          response.writeHead(status).end();
        });
      });
      const port = await freePort();
      await new Promise<void>((resolve) => webhook.listen(port, '127.0.0.1', resolve));
      webhookUrl = `http://127.0.0.1:${port}/hooks`;
      database = await freshPostgresDatabase(adminUrl ?? '', 'loopdesk_fault');
      // The test's own connections seed and read; the server processes write the outbox.
      handle = await openDatabase({
        databaseUrl: database.url,
        pgliteDataDir: 'memory://',
        webhookDeliveries: false,
      });
      await migrateToLatest(handle);
    });
    afterAll(async () => {
      server?.child.kill('SIGKILL');
      await new Promise((resolve) => webhook.close(resolve));
      await handle.close();
      await database.drop();
    });

    async function technicians(count: number): Promise<string[]> {
      const users = createUsersRepository(handle.db);
      const sessions = createSessionStore(handle.db, {
        idleMs: 3_600_000,
        absoluteMs: 3_600_000,
        reuseGraceMs: 0,
      });
      const tokens = createTokenService(secret, 3600);
      const result: string[] = [];
      for (let i = 0; i < count; i++) {
        const user = await users.upsertOnSignIn({
          email: `tech${i}@fault.test`,
          displayName: null,
          photoUrl: null,
          initialRoles: ['annotator'],
        });
        const { sessionId } = await sessions.create({ userId: user.id, ip: null, userAgent: null });
        result.push(
          await tokens.sign({
            sub: user.id,
            sid: sessionId,
            email: user.email,
            roles: ['annotator'],
          }),
        );
      }
      return result;
    }

    const jobsIn = async (state: 'assigned' | 'completed') =>
      (await handle.db.selectFrom('jobs').select('id').where('state', '=', state).execute()).length;

    /** Each technician submits every job it receives, tagged with its own name, until told to stop. */
    function work(socket: TestSocket, name: string, acked: Map<string, string>, stopAfter: number) {
      let handled = 0;
      let pending: string | null = null;
      socket.ws.on('message', (raw: Buffer) => {
        const event = JSON.parse(raw.toString()) as { type: string; data: { jobId?: string } };
        // The answer is acknowledged by the session waiting again or, while jobs are queued, by
        // the next job (it comes in the statement that completed the answered one).
        const acknowledges =
          event.type === 'technician.session.waiting' || event.type === 'message.annotation.job';
        if (acknowledges && pending) {
          acked.set(pending, name);
          pending = null;
        }
        if (event.type === 'message.annotation.job' && event.data.jobId) {
          handled += 1;
          if (handled <= stopAfter) {
            pending = event.data.jobId;
            socket.send('message.annotation', annotationData(event.data.jobId, { by: name }));
          }
        }
      });
      socket.send('technician.session.activate');
    }

    it('every job ends completed exactly once, with the result that was acknowledged, and the webhook never hears two results for one job', async () => {
      const jobs = createJobsRepository(handle.db);
      const created = [];
      for (let i = 0; i < 40; i++) {
        created.push(
          await jobs.enqueue({
            queue: 'federated',
            type: 'message.annotation.job',
            tenant: 'acme',
            payload: { i },
          }),
        );
      }
      const tokens = await technicians(4);
      const acked = new Map<string, string>();

      // First, four technicians work on node A; each stops answering after three jobs, holding a fourth.
      server = await startServerProcess(await freePort(), env());
      const first = await Promise.all(
        tokens.map((token) => openSocket(server?.baseUrl ?? '', '/ws/federated', token)),
      );
      first.forEach((socket, i) => work(socket, `a${i}`, acked, 3));
      await expect.poll(() => acked.size, { timeout: 10_000 }).toBe(12);
      await expect.poll(() => jobsIn('assigned'), { timeout: 10_000 }).toBe(4);

      // Second, node A dies without a word.
      server.child.kill('SIGKILL');
      await server.exited;
      for (const socket of first) {
        socket.ws.terminate();
      }

      // Third, node B starts on the same database; the held jobs' leases run out and return.
      server = await startServerProcess(await freePort(), env());
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const second = await Promise.all(
        tokens.map((token) => openSocket(server?.baseUrl ?? '', '/ws/federated', token)),
      );
      second.forEach((socket, i) => work(socket, `b${i}`, acked, 1000));
      await expect.poll(() => jobsIn('completed'), { timeout: 30_000, interval: 500 }).toBe(40);

      const rows = await handle.db
        .selectFrom('jobs')
        .select(['id', 'state', 'result', 'attempts'])
        .execute();
      expect(rows.every((row) => row.state === 'completed')).toBe(true);
      for (const row of rows) {
        const by = (row.result as { data: { by: string } }).data.by;
        const acknowledged = acked.get(row.id);
        if (acknowledged) {
          expect(by, `job ${row.id}`).toBe(acknowledged);
        }
      }
      // The four jobs held when node A died were handed out again.
      expect(rows.filter((row) => row.attempts === 2).length).toBeGreaterThanOrEqual(4);

      // The assistant's webhook hears of every result, however often an event is delivered again
      // (its first attempt refused, or claimed by the node that died): every event keeps its
      // webhook-id and body, and no job ever arrives with two different results.
      const completedIds = () =>
        new Set(
          deliveries
            .filter((d) => d.status === 204)
            .map((d) => JSON.parse(d.body) as { type: string; jobId: string })
            .filter((event) => event.type === 'job.completed')
            .map((event) => event.jobId),
        );
      await expect.poll(() => completedIds().size, { timeout: 60_000, interval: 500 }).toBe(40);
      const bodiesById = new Map<string, Set<string>>();
      const resultsByJob = new Map<string, Set<string>>();
      for (const delivery of deliveries) {
        bodiesById.set(delivery.id, (bodiesById.get(delivery.id) ?? new Set()).add(delivery.body));
        const event = JSON.parse(delivery.body) as {
          id: string;
          type: string;
          jobId: string;
          data: { job: { result: unknown } };
        };
        expect(event.id).toBe(delivery.id);
        if (event.type === 'job.completed') {
          const result = JSON.stringify(event.data.job.result);
          resultsByJob.set(event.jobId, (resultsByJob.get(event.jobId) ?? new Set()).add(result));
        }
      }
      for (const [id, bodies] of bodiesById) {
        expect(bodies.size, `webhook-id ${id}`).toBe(1);
      }
      for (const [jobId, results] of resultsByJob) {
        expect(results.size, `job ${jobId}`).toBe(1);
      }
      // Every event was delivered at least twice (the first attempt is refused) with its id.
      expect(
        [...bodiesById.keys()].every((id) => deliveries.filter((d) => d.id === id).length >= 2),
      ).toBe(true);
      const completedEvents = await handle.db
        .selectFrom('outbox_events')
        .select('job_id')
        .where('type', '=', 'job.completed')
        .execute();
      expect(completedEvents).toHaveLength(40);
      for (const socket of second) {
        socket.ws.close();
      }
    }, 180_000);
  },
);
