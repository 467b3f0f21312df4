/**
 * bench/cluster: two Loopdesk nodes (server processes) on one PostgreSQL and one Redis, 500
 * technician sockets across them (two processes of their own, 250 sockets on each node), and the
 * assistant posting 100 jobs a second through the integration API (`POST /api/v1/jobs`, spread
 * over both nodes) for 5 minutes. Measures enqueue → frame latency (from the assistant's call to
 * the frame in a technician's socket, on a clock the processes share) p50/p99, lost jobs (posted
 * but never completed, or completed twice), and each node's resident memory, heap and open
 * handles sampled from its /metrics across the run (the soak: the last third against the first).
 *
 * The reference, measured in the same run right after on the same PostgreSQL: graphile-worker's
 * add → start latency at the same rate (addJob from this process, a no-op task).
 * Prints `name: value` lines and ratios. Not a test: nothing here asserts.
 *
 *   npm run bench:cluster   (BENCH_SECONDS (300), BENCH_RATE (100), BENCH_TECHNICIANS (500),
 *                            BENCH_REFERENCE_SECONDS (60), BENCH_DATABASE_URL, BENCH_REDIS_URL,
 *                            BENCH_PG_SAMPLE_MS (250), BENCH_NODE_ENV (JSON), BENCH_CPU_PROF,
 *                            BENCH_AUTOVACUUM_MS (20000), BENCH_VACUUM_COST_DELAY_MS (2),
 *                            BENCH_KEEP_DATABASE=1 (keep Loopdesk's database afterwards,
 *                            to look at its statements))
 */
import { randomBytes } from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import { SOCKET_PATHS } from '@loopdesk/contracts/realtime.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { migrateToLatest } from '../apps/server/src/platform/db/migrate.ts';
import { freePort } from '../apps/server/src/test/harness.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/src/test/processes.ts';
import { tokenForRoles } from '../apps/server/src/test/tokens.ts';
import {
  cpuMsOf,
  growth,
  pathLines,
  postgresCpu,
  readPath,
  sample,
  type PathReading,
  type Sample,
} from './cluster-figures.ts';
import { ADMIN_URL, dropDatabase, freshDatabase } from './databases.ts';
import { activitySampler, tailWindows, type Arrival } from './cluster-tail.ts';
import { graphileReference, offer } from './cluster-reference.ts';
import {
  clock,
  type TechniciansCommand,
  type TechniciansData,
  type TechniciansMessage,
} from './technicians.ts';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const TECHNICIANS = Number(process.env.BENCH_TECHNICIANS ?? 500);
const REFERENCE_SECONDS = Number(process.env.BENCH_REFERENCE_SECONDS ?? Math.min(SECONDS, 60));
/** A folder for each node's CPU profile (--cpu-prof), written when the node stops. */
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** How often PostgreSQL's activity is sampled for the tail figures (0: not at all). */
const PG_SAMPLE_MS = Number(process.env.BENCH_PG_SAMPLE_MS ?? 250);
const AUTOVACUUM_MS = Number(process.env.BENCH_AUTOVACUUM_MS ?? 20_000);
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE === '1';
/** The stand-in's pace (vacuum_cost_delay), autovacuum's own by default; 0 for unpaced. */
const VACUUM_COST_DELAY_MS = Number(process.env.BENCH_VACUUM_COST_DELAY_MS ?? 2);
/** How long the nodes' CPU is read with every socket open and no job, before the run. */
const IDLE_MS = 5000;
/** How often each node's /metrics is sampled. */
const SAMPLE_MS = Math.max(1000, Math.min(10_000, (SECONDS * 1000) / 12));

/** The processes this run started, ended if it fails half-way. */
const children: ChildProcess[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A process of technician sockets on one node; reports each frame's latency. */
async function technicians(
  url: string,
  tokens: string[],
  latencies: number[],
  arrivals: Arrival[],
) {
  const child: ChildProcess = fork(new URL('./technicians.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
  });
  children.push(child);
  const command = (message: TechniciansCommand) => child.send(message);
  const reply = (type: TechniciansMessage['type']) =>
    new Promise<TechniciansMessage>((resolve) => {
      const listener = (message: TechniciansMessage) => {
        if (message.type === type) {
          child.off('message', listener);
          resolve(message);
        }
      };
      child.on('message', listener);
    });
  child.on('message', (message: TechniciansMessage) => {
    if (message.type === 'started') {
      for (const [, latencyMs, at] of message.items) {
        latencies.push(latencyMs);
        // On the shared clock, in the technicians' process: a busy producer does not move it.
        arrivals.push([at, latencyMs]);
      }
    }
  });
  const ready = reply('ready');
  command({ type: 'start', data: { url, tokens } satisfies TechniciansData });
  await ready;
  // The clocks of both processes are checked against each other (shortest round trip wins).
  let best = { offset: NaN, halfTrip: Infinity };
  for (let trip = 0; trip < 20; trip++) {
    const before = clock();
    const answer = reply('clock');
    command({ type: 'clock' });
    const theirs = await answer;
    const after = clock();
    if (theirs.type === 'clock' && (after - before) / 2 < best.halfTrip) {
      best = { offset: theirs.at - (before + after) / 2, halfTrip: (after - before) / 2 };
    }
  }
  return {
    offset: best,
    pid: child.pid,
    async stop() {
      const stopped = reply('stopped');
      command({ type: 'stop' });
      await stopped;
      child.kill();
    },
  };
}

async function loopdesk() {
  const name = `loopdesk_bench_cluster_${randomBytes(3).toString('hex')}`;
  const url = await freshDatabase(name);
  const secret = randomBytes(32).toString('hex');
  const handle = await openDatabase({
    databaseUrl: url,
    pgliteDataDir: 'memory://',
    webhookDeliveries: false,
  });
  await migrateToLatest(handle);
  const env = {
    DATABASE_URL: url,
    REDIS_URL,
    SESSION_SECRET: secret,
    LOG_LEVEL: 'error',
    API_RATE_LIMIT: String(RATE * 120),
    ...(CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF}` } : {}),
    // More settings for both nodes, to try one (`{"ANALYTICS_REFRESH_SECONDS": "3600"}`).
    ...(JSON.parse(process.env.BENCH_NODE_ENV ?? '{}') as Record<string, string>),
  };
  const [nodeA, nodeB] = await Promise.all([
    startServerProcess(await freePort(), { ...env, NODE_ID: 'bench-a' }),
    startServerProcess(await freePort(), { ...env, NODE_ID: 'bench-b' }),
  ]);
  const nodes = [nodeA, nodeB];
  children.push(nodeA.child, nodeB.child);
  const source = {
    database: handle,
    config: { sessionSecret: secret, env: { ACCESS_TOKEN_TTL_SECONDS: 3600 } },
  };
  const tokens: string[] = [];
  for (let n = 0; n < TECHNICIANS; n++) {
    tokens.push((await tokenForRoles(source, `tech${n}@bench.test`, ['annotator'])).token);
  }
  const admin = (await tokenForRoles(source, 'admin@bench.test', ['admin'])).token;
  const created = await fetch(`${nodeA.baseUrl}/internal/integration/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  const { key } = (await created.json()) as { key: string };

  const latencies: number[] = [];
  const arrivals: Arrival[] = [];
  const half = Math.ceil(TECHNICIANS / 2);
  const groups = await Promise.all(
    nodes.map((node, n) =>
      technicians(
        `${node.baseUrl.replace(/^http/, 'ws')}${SOCKET_PATHS.federated}`,
        tokens.slice(n * half, (n + 1) * half),
        latencies,
        arrivals,
      ),
    ),
  );
  for (const [n, group] of groups.entries()) {
    console.log(
      `technicians_${n === 0 ? 'a' : 'b'}_clock_offset_ms: ${group.offset.offset.toFixed(3)} ± ${group.offset.halfTrip.toFixed(3)}`,
    );
  }
  await sleep(1000);
  // What the nodes spend with every socket open and no job (heartbeats, sweeps, the sampler's
  // scrapes), to read the per-job figure against.
  const idleStarted = performance.now();
  const idleBefore = nodes.map((node) => cpuMsOf(node.child.pid));
  await sleep(IDLE_MS);
  const idleCores = nodes.map(
    (node, n) =>
      (cpuMsOf(node.child.pid) - (idleBefore[n] ?? NaN)) / (performance.now() - idleStarted),
  );

  const samples: Sample[][] = [[], []];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const [n, node] of nodes.entries()) {
        const s = await sample(node);
        if (s) {
          samples[n]?.push(s);
        }
      }
      await sleep(SAMPLE_MS);
    }
  })();

  // CPU from here to the last job's completion: each node, the technicians' processes, this
  // process (the producer) and the PostgreSQL backends of the database.
  const postgres = postgresCpu(ADMIN_URL, name);
  await postgres.start();
  const activity = PG_SAMPLE_MS > 0 ? activitySampler(ADMIN_URL, name, PG_SAMPLE_MS) : null;
  await activity?.start();
  const pgPoller = setInterval(() => void postgres.poll().catch(() => undefined), 1000);
  // Autovacuum's work, where the server has it off (this machine's shared PostgreSQL): without
  // it the growing tables keep the plans of their first, empty statistics (bench/README.md).
  const stats = await sql<{ autovacuum: string }>`show autovacuum`.execute(handle.db);
  const standIn = stats.rows[0]?.autovacuum === 'off' && AUTOVACUUM_MS > 0;
  let vacuums = 0;
  let vacuuming = Promise.resolve();
  // Paced as autovacuum paces itself (autovacuum_vacuum_cost_delay 2 ms; a VACUUM typed by hand
  // runs unpaced): unpaced, its runs were the longest statements of the run and the tail's
  // windows sat on them.
  const vacuumClient = standIn
    ? new pg.Client({
        connectionString: url,
        options: `-c vacuum_cost_delay=${VACUUM_COST_DELAY_MS}`,
      })
    : null;
  await vacuumClient?.connect();
  const vacuumer = vacuumClient
    ? setInterval(() => {
        vacuuming = vacuuming.then(() =>
          vacuumClient.query('vacuum analyze').then(
            () => void (vacuums += 1),
            () => undefined,
          ),
        );
      }, AUTOVACUUM_MS)
    : undefined;
  const pathBefore = await Promise.all(nodes.map(readNode));
  const cpuBefore = {
    nodes: nodes.map((node) => cpuMsOf(node.child.pid)),
    technicians: groups.map((group) => cpuMsOf(group.pid)),
    producer: process.cpuUsage(),
  };
  const wallStarted = performance.now();
  const clockStarted = clock();

  let failed = 0;
  const failures = new Map<string, number>();
  const postMs: number[] = [];
  const load = loadavg()[0]?.toFixed(1);
  const { total, seconds } = await offer(RATE, SECONDS, async (i) => {
    const node = i % 2 === 0 ? nodeA : nodeB;
    const posted = performance.now();
    const response = await fetch(`${node.baseUrl}/api/v1/jobs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': `bench-${i}`,
      },
      body: JSON.stringify({
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'bench',
        data: { t0: clock(), phase: 1, i, lastTurn: { content: `job ${i}` } },
      }),
    }).catch((error: unknown) => {
      const cause = error instanceof Error ? error.cause : undefined;
      const reason =
        cause instanceof Error
          ? `${cause.name}: ${cause.message}`
          : error instanceof Error
            ? error.message
            : 'error';
      failures.set(reason, (failures.get(reason) ?? 0) + 1);
      return null;
    });
    postMs.push(performance.now() - posted);
    if (!response || response.status !== 201) {
      failed += 1;
    }
    if (response && response.status !== 201) {
      const reason = `${response.status} ${(await response.text()).slice(0, 100)}`;
      failures.set(reason, (failures.get(reason) ?? 0) + 1);
    } else {
      await response?.arrayBuffer();
    }
  });
  // Every job answered: wait for the last ones, then count.
  const count = async () => {
    const jobs = await handle.db
      .selectFrom('jobs')
      .select(['state', handle.db.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    return Object.fromEntries(jobs.map((j) => [j.state, Number(j.n)]));
  };
  const deadline = performance.now() + 30_000;
  while ((await count()).completed !== total && performance.now() < deadline) {
    await sleep(250);
  }
  const producerUsed = process.cpuUsage(cpuBefore.producer);
  const cpu = {
    wallMs: performance.now() - wallStarted,
    nodes: nodes.map((node, n) => cpuMsOf(node.child.pid) - (cpuBefore.nodes[n] ?? NaN)),
    technicians: groups.map((group, n) => cpuMsOf(group.pid) - (cpuBefore.technicians[n] ?? NaN)),
    producer: (producerUsed.user + producerUsed.system) / 1000,
    postgres: NaN,
  };
  clearInterval(pgPoller);
  clearInterval(vacuumer);
  await vacuuming;
  await vacuumClient?.end();
  console.log(
    standIn
      ? `autovacuum_stand_in: the server's autovacuum is off; vacuum analyze every ${AUTOVACUUM_MS / 1000} s paced at ${VACUUM_COST_DELAY_MS} ms, ${vacuums} runs (BENCH_AUTOVACUUM_MS=0 to skip)`
      : `autovacuum_stand_in: none (the server's autovacuum: ${stats.rows[0]?.autovacuum ?? '?'})`,
  );
  await postgres.poll();
  cpu.postgres = postgres.used();
  await postgres.close();
  const activityLines = (await activity?.stop()) ?? [];
  const pathAfter = await Promise.all(nodes.map(readNode));
  sampling = false;
  await sampler;
  const states = await count();
  const told = await handle.db
    .selectFrom('outbox_events')
    .select(['job_id', handle.db.fn.countAll<number>().as('n')])
    .where('type', '=', 'job.completed')
    .groupBy('job_id')
    .execute();
  const doubled = told.filter((t) => Number(t.n) > 1).length;

  for (const group of groups) {
    await group.stop();
  }
  for (const node of nodes) {
    node.child.kill('SIGTERM');
  }
  await Promise.all(nodes.map((node) => node.exited));
  await handle.close();
  if (KEEP_DATABASE) {
    console.log(`database_kept: ${name}`);
  } else {
    await dropDatabase(name);
  }
  return {
    total,
    seconds,
    failed,
    load,
    states,
    lost: total - failed - (states.completed ?? 0),
    failures,
    postMs,
    doubled,
    frames: latencies.length,
    latencies,
    // Each frame's arrival from the first post, for the windows of the tail.
    arrivals: arrivals.map(([at, ms]): Arrival => [at - clockStarted, ms]),
    activityLines,
    samples,
    cpu,
    idleCores,
    path: { before: pathBefore, after: pathAfter },
  };
}

/** A node's /metrics read for the path figures (CPU seconds, step histograms). */
async function readNode(node: ServerProcess): Promise<PathReading> {
  return readPath(
    await fetch(`${node.baseUrl}/metrics`)
      .then((r) => r.text())
      .catch(() => ''),
  );
}

/** Growth of memory or handles over the run that still counts as flat (the soak's goal). */
const FLAT = 1.1;

async function main(): Promise<void> {
  console.log(
    `bench:cluster: 2 nodes, ${TECHNICIANS} technician sockets, ${RATE} jobs/s for ${SECONDS} s through POST /api/v1/jobs; load ${loadavg()[0]?.toFixed(1)} at start`,
  );
  const ours = await loopdesk();
  const p50 = percentile(ours.latencies, 50);
  const p99 = percentile(ours.latencies, 99);
  const accepted = ours.total - ours.failed;
  const completed = ours.states.completed ?? 0;
  console.log(`loopdesk_jobs_posted: ${ours.total} in ${ours.seconds.toFixed(1)} s`);
  console.log(
    `loopdesk_rate_achieved: ${(accepted / ours.seconds).toFixed(1)} accepted jobs/s (offered ${RATE}/s)`,
  );
  console.log(
    `loopdesk_posts_failed: ${ours.failed} ${JSON.stringify(Object.fromEntries(ours.failures))}`,
  );
  console.log(
    `loopdesk_post_response_p50_ms: ${percentile(ours.postMs, 50).toFixed(1)}, p99 ${percentile(ours.postMs, 99).toFixed(1)}`,
  );
  console.log(`loopdesk_frames: ${ours.frames}`);
  console.log(`loopdesk_jobs_lost (accepted, never completed): ${ours.lost}`);
  console.log(`loopdesk_jobs_completed_twice: ${ours.doubled}`);
  console.log(`loopdesk_job_states: ${JSON.stringify(ours.states)}`);
  console.log(`loopdesk_enqueue_to_frame_p50_ms: ${p50.toFixed(1)}`);
  console.log(`loopdesk_enqueue_to_frame_p99_ms: ${p99.toFixed(1)}`);
  // CPU per completed job: what the path costs, whatever the machine's load made of wall time.
  const perJob = (ms: number) => (completed > 0 ? (ms / completed).toFixed(2) : 'NaN');
  const { cpu } = ours;
  const [cpuA = NaN, cpuB = NaN] = cpu.nodes;
  const technicianCpu = cpu.technicians.reduce((sum, ms) => sum + ms, 0);
  console.log(
    `cpu_ms_per_job: node_a ${perJob(cpuA)}, node_b ${perJob(cpuB)}, nodes ${perJob(cpuA + cpuB)}, postgres ${perJob(cpu.postgres)}, technicians ${perJob(technicianCpu)}, producer ${perJob(cpu.producer)} (${completed} jobs over ${(cpu.wallMs / 1000).toFixed(1)} s)`,
  );
  const idle = ours.idleCores.reduce((sum, cores) => sum + cores, 0);
  console.log(
    `cpu_idle_cores (sockets open, no jobs): node_a ${ours.idleCores[0]?.toFixed(3)}, node_b ${ours.idleCores[1]?.toFixed(3)}; nodes' cpu_ms_per_job above idle: ${perJob(cpuA + cpuB - idle * cpu.wallMs)}`,
  );
  console.log(
    `cpu_cores_used: nodes ${((cpuA + cpuB) / cpu.wallMs).toFixed(2)}, postgres ${(cpu.postgres / cpu.wallMs).toFixed(2)}, technicians ${(technicianCpu / cpu.wallMs).toFixed(2)}, producer ${(cpu.producer / cpu.wallMs).toFixed(2)}`,
  );
  for (const [n, before] of ours.path.before.entries()) {
    const after = ours.path.after[n];
    if (after) {
      for (const line of pathLines(n === 0 ? 'a' : 'b', before, after)) {
        console.log(line);
      }
    }
  }
  for (const line of [...tailWindows(ours.arrivals, 5000, 100), ...ours.activityLines]) {
    console.log(line);
  }
  let flat = true;
  for (const [n, samples] of ours.samples.entries()) {
    const node = n === 0 ? 'a' : 'b';
    console.log(`node_${node}_samples: ${samples.length}`);
    const rss = growth(samples, 'rss');
    const heap = growth(samples, 'heap');
    const handles = growth(samples, 'handles');
    console.log(`node_${node}_rss_mib: ${rss.text}`);
    console.log(`node_${node}_heap_used_mib: ${heap.text}`);
    console.log(`node_${node}_active_handles: ${handles.text}`);
    flat &&= rss.ratio <= FLAT && handles.ratio <= FLAT;
  }
  const reference = await graphileReference(RATE, REFERENCE_SECONDS);
  const g50 = percentile(reference.latencies, 50);
  const g99 = percentile(reference.latencies, 99);
  console.log(
    `graphile_worker_add_to_start_p50_ms: ${g50.toFixed(1)} (${reference.latencies.length}/${reference.total} started, ${REFERENCE_SECONDS} s at ${RATE}/s)`,
  );
  console.log(`graphile_worker_add_to_start_p99_ms: ${g99.toFixed(1)}`);
  console.log(`ratio_p50_loopdesk_over_graphile_worker: ${(p50 / g50).toFixed(2)}`);
  console.log(`ratio_p99_loopdesk_over_graphile_worker: ${(p99 / g99).toFixed(2)}`);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const rateOk = accepted / ours.seconds >= 0.95 * RATE && ours.failed === 0;
  console.log(
    `goal: p99 < 100 ms ${met(p99 < 100)} (${p99.toFixed(1)} ms); 0 lost ${met(ours.lost === 0 && ours.doubled === 0)} (${ours.lost} lost, ${ours.doubled} twice); rate ${met(rateOk)} (${(accepted / ours.seconds).toFixed(1)}/${RATE} per s, ${ours.failed} failed); memory and handles flat (≤ ${FLAT}×) ${met(flat)}`,
  );
  console.log(`load_average_at_end: ${loadavg()[0]?.toFixed(1)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  for (const child of children) {
    child.kill();
  }
  process.exit(1);
});
