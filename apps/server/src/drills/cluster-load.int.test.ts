import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { DatabaseHandle } from '../platform/db/database.ts';
import { startTwoNodes, type ServerProcess, type TwoNodes } from '../test/processes.ts';
import { annotationData, openSocket, type TestSocket } from '../test/socket-client.ts';
import { tokenForRoles } from '../test/tokens.ts';

/**
 * Drill (issue 18 point 10, bounded for CI; `npm run bench:cluster` is the five-minute run):
 * two server processes on one PostgreSQL and one Redis, technicians on both nodes answering
 * every job at once, the assistant posting jobs through the integration API at a steady rate,
 * spread over both nodes. What must hold: every job reaches a technician and completes once (none
 * lost, none twice). Printed: enqueue → frame latency (from the assistant's call to the frame in
 * a socket, one clock) p50/p99/max, and each node's resident memory and active handles before
 * and after. Latency is a figure here, not a verdict: the benchmark judges it on a quiet machine.
 */

const TECHNICIANS_PER_NODE = 10;
const JOBS = 300;
const RATE_PER_SECOND = 60;

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** A technician whose socket answers every job it is offered, at once; notes when each came. */
async function autoTechnician(
  baseUrl: string,
  token: string,
  frames: Map<string, number[]>,
): Promise<TestSocket> {
  const socket = await openSocket(baseUrl, '/ws/federated', token);
  await socket.next('technician.session.paused', 15_000);
  socket.ws.on('message', (raw: Buffer) => {
    const event = JSON.parse(raw.toString()) as { type: string; data: { jobId?: string } };
    if (event.type === 'message.annotation.job' && event.data.jobId) {
      const seen = frames.get(event.data.jobId) ?? [];
      seen.push(performance.now());
      frames.set(event.data.jobId, seen);
      socket.send('message.annotation', annotationData(event.data.jobId));
    }
  });
  socket.send('technician.session.activate');
  await socket.next('technician.session.waiting', 15_000);
  return socket;
}

/** Resident memory (MiB) and active handles, from a node's /metrics. */
async function footprint(node: ServerProcess): Promise<{ rssMiB: number; handles: number }> {
  const text = await (await fetch(`${node.baseUrl}/metrics`)).text();
  const read = (name: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${name} `))
        ?.split(' ')[1] ?? NaN,
    );
  return {
    rssMiB: read('process_resident_memory_bytes') / 1024 / 1024,
    handles: read('nodejs_active_handles_total'),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

describe.skipIf(!adminUrl || !redisUrl)(
  'drill: jobs flow steadily through two nodes (needs TEST_DATABASE_URL and TEST_REDIS_URL)',
  () => {
    let cluster: TwoNodes | undefined;
    let handle: DatabaseHandle;
    let secret: string;
    let nodes: ServerProcess[] = [];
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      cluster = await startTwoNodes({
        adminUrl: adminUrl ?? '',
        redisUrl: redisUrl ?? '',
        prefix: 'loopdesk_load',
      });
      ({ handle, secret } = cluster);
      nodes = [cluster.nodeA, cluster.nodeB];
    }, 120_000);
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

    it(`${JOBS} jobs at ${RATE_PER_SECOND}/s over both nodes: every one reaches a technician and completes once`, async () => {
      const admin = (await signIn('root@load.test', ['admin'])).token;
      const created = await fetch(`${nodes[0]?.baseUrl}/internal/integration/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'load drill' }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };

      // Technicians on both nodes resume and answer whatever they are offered.
      const frames = new Map<string, number[]>();
      for (const [n, node] of nodes.entries()) {
        for (let i = 0; i < TECHNICIANS_PER_NODE; i++) {
          const { token } = await signIn(`tech-${n}-${i}@load.test`, ['annotator']);
          sockets.push(await autoTechnician(node.baseUrl, token, frames));
        }
      }
      const before = await Promise.all(nodes.map(footprint));

      // The assistant posts at a steady rate, alternating nodes.
      const posted = new Map<string, number>();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: JOBS }, async (_, i) => {
          const due = started + (i * 1000) / RATE_PER_SECOND;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
          const at = performance.now();
          const response = await fetch(`${nodes[i % 2]?.baseUrl}/api/v1/jobs`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'idempotency-key': `load-${i}`,
            },
            body: JSON.stringify({
              queue: 'federated',
              type: 'message.annotation.job',
              tenant: 'acme',
              data: { lastTurn: { content: `Job ${i}: my knee hurts` } },
            }),
          });
          expect(response.status, await response.clone().text()).toBeLessThan(300);
          posted.set(((await response.json()) as { id: string }).id, at);
        }),
      );
      const postedFor = (performance.now() - started) / 1000;

      // Every job completes.
      const completed = async () =>
        (
          await handle.db
            .selectFrom('jobs')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('state', '=', 'completed')
            .executeTakeFirstOrThrow()
        ).n;
      for (let waited = 0; waited < 30_000 && (await completed()) < JOBS; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const after = await Promise.all(nodes.map(footprint));
      const told = await handle.db
        .selectFrom('outbox_events')
        .select(['job_id', sql<number>`count(*)::int`.as('n')])
        .where('type', '=', 'job.completed')
        .groupBy('job_id')
        .execute();
      const lost = JOBS - (await completed());
      const doubled = told.filter((row) => row.n > 1).length;
      const offeredTwice = [...frames.values()].filter((seen) => seen.length > 1).length;
      const latencies = [...posted]
        .map(([id, at]) => (frames.get(id)?.[0] ?? NaN) - at)
        .filter((ms) => !Number.isNaN(ms))
        .sort((x, y) => x - y);
      const mem = (i: number) =>
        `node ${'AB'[i]} rss ${before[i]?.rssMiB.toFixed(0)} → ${after[i]?.rssMiB.toFixed(0)} MiB, ` +
        `handles ${before[i]?.handles} → ${after[i]?.handles}`;
      console.info(
        `[drill] cluster load: ${JOBS} jobs posted in ${postedFor.toFixed(1)} s ` +
          `(${RATE_PER_SECOND}/s asked) to ${TECHNICIANS_PER_NODE * 2} technicians on two nodes; ` +
          `enqueue → frame p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? NaN).toFixed(1)} ms ` +
          `(${latencies.length} framed); lost ${lost}, doubled ${doubled}, offered twice ${offeredTwice}; ` +
          `${mem(0)}; ${mem(1)}`,
      );
      expect(lost).toBe(0);
      expect(doubled).toBe(0);
      expect(told).toHaveLength(JOBS);
      expect(latencies).toHaveLength(JOBS);
    });
  },
);
