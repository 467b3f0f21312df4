import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { DatabaseHandle } from '../platform/db/database.ts';
import { startTwoNodes, type ServerProcess, type TwoNodes } from '../test/processes.ts';
import { annotationData, openSocket, type TestSocket } from '../test/socket-client.ts';
import { tokenForRoles } from '../test/tokens.ts';

/**
 * Drill (issue 18 point 1): a node dies mid-stream. Two server processes share one PostgreSQL and
 * one Redis, DEMO off. Technicians on both nodes answer every job they are offered at once. The
 * assistant enqueues 500 jobs through the integration API, spread over both nodes, retrying on
 * the other node (with the same Idempotency-Key) when a call fails. Partway through, node A is
 * killed with SIGKILL: no shutdown, no goodbye to its sockets, its leases left in the database.
 *
 * What must still hold: every job is completed exactly once (none lost, none answered twice, the
 * outbox tells the assistant once per job); the jobs the dead node held are offered again within
 * their lease; node B keeps serving; node A's sockets are gone from session management.
 */

const JOBS = 500;
const TECHNICIANS_PER_NODE = 6;
/** Producers posting at once (the assistant's concurrency). */
const PRODUCERS = 8;
/** Node A dies once this many jobs have been accepted. */
const KILL_AFTER = 200;
/** Short leases and sweeps for the drill (the least JOB_LEASE_SECONDS allows). */
const LEASE_SECONDS = 5;
const SWEEP_SECONDS = 0.5;
/** Room on top of lease and sweep for a loaded machine (6.5 s was measured at load 25). */
const REQUEUE_SLACK_MS = 3_000;
/** A second of heartbeat: a session not seen for three of them is stale. */
const HEARTBEAT_SECONDS = 1;

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** One offer a technician received: which job, on which node, when (ms, performance clock). */
interface Offer {
  readonly jobId: string;
  readonly node: 'A' | 'B';
  readonly at: number;
}

/** A technician whose socket answers every job it is offered, at once. */
async function autoTechnician(
  baseUrl: string,
  node: 'A' | 'B',
  token: string,
  offers: Offer[],
): Promise<TestSocket> {
  const socket = await openSocket(baseUrl, '/ws/federated', token);
  await socket.next('technician.session.paused', 15_000);
  socket.ws.on('message', (raw: Buffer) => {
    const event = JSON.parse(raw.toString()) as { type: string; data: { jobId?: string } };
    if (event.type === 'message.annotation.job' && event.data.jobId) {
      offers.push({ jobId: event.data.jobId, node, at: performance.now() });
      socket.send('message.annotation', annotationData(event.data.jobId));
    }
  });
  socket.send('technician.session.activate');
  await socket.next('technician.session.waiting', 15_000);
  return socket;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check()) {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe.skipIf(!adminUrl || !redisUrl)(
  'drill: one of two nodes is killed with SIGKILL while 500 jobs flow (needs TEST_DATABASE_URL and TEST_REDIS_URL: two server processes on PostgreSQL and Redis)',
  () => {
    let cluster: TwoNodes | undefined;
    let secret: string;
    let handle: DatabaseHandle;
    let nodeA: ServerProcess;
    let nodeB: ServerProcess;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      cluster = await startTwoNodes({
        adminUrl: adminUrl ?? '',
        redisUrl: redisUrl ?? '',
        prefix: 'loopdesk_crash',
        env: {
          JOB_LEASE_SECONDS: String(LEASE_SECONDS),
          LEASE_SWEEP_SECONDS: String(SWEEP_SECONDS),
          SOCKET_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
          // Agreement sampling on, as in production: its second deliveries must not break
          // exactly-once either.
          AGREEMENT_SAMPLE_SHARE: '0.05',
        },
      });
      ({ secret, handle, nodeA, nodeB } = cluster);
    }, 200_000);
    afterAll(async () => {
      for (const socket of sockets) {
        socket.ws.terminate();
      }
      await cluster?.close();
    });

    const signIn = (email: string, roles: Role[]) =>
      tokenForRoles(
        {
          database: handle,
          config: { sessionSecret: secret, env: { ACCESS_TOKEN_TTL_SECONDS: 3600 } },
        },
        email,
        roles,
      );

    it('every job is completed exactly once; the dead node’s jobs come back within their lease; B keeps serving; A’s sockets are gone', async () => {
      const started = performance.now();
      const admin = (await signIn('root@crash.test', ['admin', 'annotator'])).token;
      const created = await fetch(`${nodeB.baseUrl}/internal/integration/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'crash drill' }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };

      // Technicians on both nodes resume and answer whatever they are offered.
      const offers: Offer[] = [];
      const technicians: { userId: string; node: 'A' | 'B' }[] = [];
      for (const node of ['A', 'B'] as const) {
        for (let i = 0; i < TECHNICIANS_PER_NODE; i++) {
          const { token, userId } = await signIn(`tech-${node}${i}@crash.test`, ['annotator']);
          technicians.push({ userId, node });
          sockets.push(
            await autoTechnician(node === 'A' ? nodeA.baseUrl : nodeB.baseUrl, node, token, offers),
          );
        }
      }
      const onA = new Set(technicians.filter((t) => t.node === 'A').map((t) => t.userId));

      // The assistant posts 500 jobs, alternating nodes; a failed call is retried on node B with
      // the same Idempotency-Key, as a client behind a load balancer would.
      let next = 0;
      let accepted = 0;
      let retried = 0;
      let killedAt = 0;
      let killedWall = 0;
      const jobIds = new Set<string>();
      const post = (baseUrl: string, i: number) =>
        fetch(`${baseUrl}/api/v1/jobs`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': `crash-${i}`,
          },
          body: JSON.stringify({
            queue: 'federated',
            type: 'message.annotation.job',
            tenant: 'acme',
            data: { lastTurn: { content: `Job ${i}: my knee hurts` } },
          }),
        });
      let held: { id: string; lease_expires_at: Date | null }[] = [];
      const killA = async () => {
        killedAt = performance.now();
        killedWall = Date.now();
        nodeA.child.kill('SIGKILL');
        await nodeA.exited;
        // The jobs the dead node's technicians held when it died, with their leases.
        held = await handle.db
          .selectFrom('jobs')
          .select(['id', 'lease_expires_at'])
          .where('state', '=', 'assigned')
          .where('assignee_id', 'in', [...onA])
          .execute();
      };
      await Promise.all(
        Array.from({ length: PRODUCERS }, async () => {
          for (let i = next++; i < JOBS; i = next++) {
            const target = i % 2 === 0 && killedAt === 0 ? nodeA.baseUrl : nodeB.baseUrl;
            let response = await post(target, i).catch(() => null);
            if (!response || response.status >= 500) {
              retried += 1;
              response = await post(nodeB.baseUrl, i);
            }
            expect(response.status).toBeLessThan(300);
            jobIds.add(((await response.json()) as { id: string }).id);
            accepted += 1;
            if (accepted === KILL_AFTER) {
              await killA();
            }
          }
        }),
      );
      expect(jobIds.size).toBe(JOBS);
      const postedAt = performance.now();

      // Every job completes: the survivors take what the dead node held once its leases run out.
      const completed = async () =>
        Number(
          (
            await handle.db
              .selectFrom('jobs')
              .select(sql<number>`count(*)::int`.as('n'))
              .where('state', '=', 'completed')
              // The posted jobs: agreement samples (issue 16, a share of answered jobs sent again,
              // unseen, to a second technician) are jobs of their own, counted apart below.
              .where('agreement_of', 'is', null)
              .executeTakeFirstOrThrow()
          ).n,
        );
      await until(async () => (await completed()) === JOBS, (LEASE_SECONDS + 20) * 1000);
      const doneAt = performance.now();

      // The outbox tells the assistant once per job.
      const told = await handle.db
        .selectFrom('outbox_events')
        .select(['job_id', sql<number>`count(*)::int`.as('n')])
        .where('type', '=', 'job.completed')
        .groupBy('job_id')
        .execute();
      const toldOnce = told.filter((row) => row.n === 1).length;
      const doubled = told.filter((row) => row.n > 1).length;
      const states = await handle.db
        .selectFrom('jobs')
        .select(['state', sql<number>`count(*)::int`.as('n')])
        .where('agreement_of', 'is', null)
        .groupBy('state')
        .execute();
      const samples = (
        await handle.db
          .selectFrom('jobs')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('agreement_of', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n;
      // A sample never tells the assistant anything: every job.completed is of a posted job.
      const toldOfSamples = (
        await handle.db
          .selectFrom('outbox_events')
          .innerJoin('jobs', 'jobs.id', 'outbox_events.job_id')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('jobs.agreement_of', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n;
      const lost = JOBS - (await completed());

      // The jobs node A held were offered again on node B, within their lease (and a sweep).
      const delays = held.map((job) => {
        const again = offers.find((o) => o.jobId === job.id && o.node === 'B' && o.at > killedAt);
        const leaseLeft = job.lease_expires_at
          ? new Date(job.lease_expires_at).getTime() - killedWall
          : 0;
        return { id: job.id, delay: again ? again.at - killedAt : Infinity, leaseLeft };
      });
      const worst = Math.max(0, ...delays.map((d) => d.delay));

      // Node B still serves; node A's technicians are no longer connected in session management.
      const ready = await fetch(`${nodeB.baseUrl}/readyz`);
      const summary = (await (
        await fetch(`${nodeB.baseUrl}/internal/sessions/_summary`, {
          headers: { authorization: `Bearer ${admin}` },
        })
      ).json()) as { items: { technicianId: string; connected: boolean }[] };
      const count = (await (
        await fetch(`${nodeB.baseUrl}/internal/sessions/_count`, {
          headers: { authorization: `Bearer ${admin}` },
        })
      ).json()) as { federated: number };
      const ofA = summary.items.filter((s) => onA.has(s.technicianId));
      const ghosts = ofA.filter((s) => s.connected).length;

      console.info(
        `[drill] crash: jobs ${JOBS}, lost ${lost}, doubled ${doubled}, told once ${toldOnce}, ` +
          `held by the dead node ${held.length}, worst requeue delay ${worst.toFixed(0)} ms ` +
          `(lease ${LEASE_SECONDS * 1000} ms), retried posts ${retried}, offers ${offers.length} ` +
          `(A ${offers.filter((o) => o.node === 'A').length}, B ${offers.filter((o) => o.node === 'B').length}), ` +
          `agreement samples ${samples} (told of them ${toldOfSamples}), ` +
          `posted in ${((postedAt - started) / 1000).toFixed(1)} s, all done ` +
          `${((doneAt - killedAt) / 1000).toFixed(1)} s after the kill, A's sessions still connected ${ghosts}`,
      );

      expect(states).toEqual([{ state: 'completed', n: JOBS }]);
      expect(lost).toBe(0);
      expect(doubled).toBe(0);
      expect(toldOnce).toBe(JOBS);
      expect(toldOfSamples).toBe(0);
      for (const d of delays) {
        // Offered again no later than its lease ran out and a sweep passed, with room for a
        // loaded machine (the sweep, the claim and the frame each wait for a starved process).
        expect(d.delay, `job ${d.id}`).toBeLessThan(
          Math.max(d.leaseLeft, 0) + SWEEP_SECONDS * 1000 + REQUEUE_SLACK_MS,
        );
      }
      expect(ready.status).toBe(200);
      expect(ofA).toHaveLength(TECHNICIANS_PER_NODE);
      expect(ghosts).toBe(0);
      expect(count.federated).toBe(TECHNICIANS_PER_NODE);
      // B's technicians are still there and still take work: one more job, after it all.
      const last = await post(nodeB.baseUrl, JOBS);
      const lastId = ((await last.json()) as { id: string }).id;
      expect(
        await until(
          async () =>
            (
              await handle.db
                .selectFrom('jobs')
                .select('state')
                .where('id', '=', lastId)
                .executeTakeFirstOrThrow()
            ).state === 'completed',
          10_000,
        ),
      ).toBe(true);
    }, 180_000);
  },
);
