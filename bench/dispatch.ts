/**
 * bench/dispatch: 100 technician sockets on one Loopdesk node with PostgreSQL, then the same
 * no-op workload through graphile-worker (batching off) and pg-boss on the same PostgreSQL. Each
 * system gets a fresh database, the same connection budget, the same producers and the same
 * warm-up, and is measured twice:
 *
 * - saturation: 10,000 jobs from 10 producers as fast as the system takes them (completed jobs
 *   per second, and latency, which at saturation is mostly time spent queueing);
 * - steady load: a fixed offered rate below saturation (default 200 jobs/s for 15 s), where
 *   latency is the time one job takes through an unhurried system.
 *
 * Latency is from the producer's call (Loopdesk's enqueue, graphile-worker's addJob, pg-boss's
 * send) to the work starting (the frame in the technician's socket; the task function called).
 * Loopdesk's technicians are portal sockets in a process of their own (bench/technicians.ts):
 * in production they are browsers on other machines, not work in the server's event loop. The
 * peers' workers are part of the peer, so they run in this process, as they are meant to.
 * Prints `name: value` lines and the ratios. Not a test: nothing here asserts.
 *
 *   npm run bench:dispatch   (BENCH_DATABASE_URL, BENCH_JOBS, BENCH_TECHNICIANS, BENCH_RATE,
 *                             BENCH_RATE_SECONDS, BENCH_WARMUP to adjust; BENCH_SYSTEMS=loopdesk,
 *                             graphile_worker,pg_boss to run only some)
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fork } from 'node:child_process';
import { Logger, run, makeWorkerUtils } from 'graphile-worker';
import PgBoss from 'pg-boss';
import { SOCKET_PATHS } from '@loopdesk/contracts/realtime.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { migrateToLatest } from '../apps/server/src/platform/db/migrate.ts';
import { createUsersRepository } from '../apps/server/src/modules/users/repository.ts';
import { createSessionStore } from '../apps/server/src/platform/auth/sessions.ts';
import { createTokenService } from '../apps/server/src/platform/auth/tokens.ts';
import {
  clock,
  type TechniciansCommand,
  type TechniciansData,
  type TechniciansMessage,
} from './technicians.ts';
import { freshDatabase } from './databases.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const TECHNICIANS = Number(process.env.BENCH_TECHNICIANS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const PRODUCERS = 10;
/**
 * PostgreSQL connections each system may hold. Loopdesk: the shared pool (producers, submissions)
 * and its one-connection dispatch lane; graphile-worker: its worker pool and addJob's pool;
 * pg-boss: one pool for both.
 */
const CONNECTIONS = 21;

/** A job's payload: when the producer called (`clock`), which job, which phase. */
interface Payload {
  t0: number;
  i: number;
  phase: number;
}

/** A system under test: takes jobs, and calls `started` as each job's work begins. */
interface System {
  add(payload: Payload): Promise<void>;
  stop(): Promise<void>;
}
/** A job's work began: its latency is measured now, or was measured where it began. */
type Started = (payload: Pick<Payload, 'phase'> & Partial<Payload>, latencyMs?: number) => void;

interface Phase {
  latencies: number[];
  seconds: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one system through warm-up, saturation and steady load. `started` of the system records
 * into the phase running now; a phase ends when all its jobs have started.
 */
async function measure(
  start: (started: Started) => Promise<System>,
): Promise<{ saturation: Phase; steady: Phase }> {
  let phase = 0;
  let latencies: number[] = [];
  let expected = 0;
  let finish: () => void = () => undefined;
  const system = await start((payload, latencyMs) => {
    if (payload.phase !== phase) {
      return;
    }
    latencies.push(latencyMs ?? clock() - (payload.t0 ?? NaN));
    if (latencies.length === expected) {
      finish();
    }
  });
  const begin = (count: number) => {
    phase += 1;
    latencies = [];
    expected = count;
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  };
  const add = (i: number) => system.add({ t0: clock(), i, phase });

  /** `count` jobs from the producers, each calling again as soon as its call returns. */
  const saturate = async (count: number): Promise<Phase> => {
    const done = begin(count);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        while (next < count) {
          next += 1;
          await add(next);
        }
      }),
    );
    await done;
    return { latencies, seconds: (performance.now() - started) / 1000 };
  };

  await saturate(WARMUP);
  const saturation = await saturate(JOBS);
  await sleep(500);

  // Steady load: job i is offered at i / RATE seconds, whether or not earlier calls returned.
  const count = Math.round(RATE * RATE_SECONDS);
  const done = begin(count);
  const started = performance.now();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / RATE - performance.now();
    if (wait > 1) {
      await sleep(wait);
    }
    calls.push(add(i));
  }
  await Promise.all(calls);
  await done;
  const steady = { latencies, seconds: (performance.now() - started) / 1000 };
  await system.stop();
  return { saturation, steady };
}

async function loopdesk(url: string, started: Started): Promise<System> {
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PORT: '0',
      PUBLIC_URL: 'http://127.0.0.1:1',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      DATABASE_URL: url,
      DEMO: '0',
    },
    { pgliteDataDir: 'memory://' },
  );
  const database = await openDatabase({
    databaseUrl: url,
    pgliteDataDir: 'memory://',
    // The dispatch lane is the one connection more.
    poolSize: CONNECTIONS - 1,
    // No webhook, as for the peers: results go to the outbox (the pull feed) alone.
    webhookDeliveries: false,
  });
  await migrateToLatest(database);
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const users = createUsersRepository(database.db);
  const sessions = createSessionStore(database.db, {
    idleMs: 3_600_000,
    absoluteMs: 3_600_000,
    reuseGraceMs: 0,
  });
  const tokens = createTokenService(config.sessionSecret, 3600);
  const tokenList = await Promise.all(
    Array.from({ length: TECHNICIANS }, async (_, n) => {
      const user = await users.upsertOnSignIn({
        email: `tech${n}@bench.test`,
        displayName: null,
        photoUrl: null,
        initialRoles: ['annotator'],
      });
      const { sessionId } = await sessions.create({ userId: user.id, ip: null, userAgent: null });
      return tokens.sign({
        sub: user.id,
        sid: sessionId,
        email: user.email,
        roles: ['annotator'],
      });
    }),
  );
  const data: TechniciansData = {
    url: `ws://127.0.0.1:${port}${SOCKET_PATHS.federated}`,
    tokens: tokenList,
  };
  // The process loads TypeScript as this one does.
  const technicians = fork(new URL('./technicians.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
  });
  const command = (message: TechniciansCommand) => technicians.send(message);
  const reply = (type: TechniciansMessage['type']) =>
    new Promise<TechniciansMessage>((resolve) => {
      const listener = (message: TechniciansMessage) => {
        if (message.type === type) {
          technicians.off('message', listener);
          resolve(message);
        }
      };
      technicians.on('message', listener);
    });
  technicians.on('message', (message: TechniciansMessage) => {
    if (message.type === 'started') {
      for (const [phase, latencyMs] of message.items) {
        started({ phase }, latencyMs);
      }
    }
  });
  technicians.on('exit', (code) => {
    if (code !== 0 && code !== null) {
      console.error(`the technicians' process failed (exit ${code})`);
      process.exit(1);
    }
  });
  const ready = reply('ready');
  command({ type: 'start', data });
  await ready;
  // Latency is measured across the processes: their clocks are checked against each other by
  // round trips (the technicians' reading against the midpoint of ours; the shortest trip wins).
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
  console.log(
    `technicians_clock_offset_ms: ${best.offset.toFixed(3)} ± ${best.halfTrip.toFixed(3)}`,
  );
  await sleep(500);

  return {
    // The product's enqueue: the job, handed in the same statement to the longest-waiting
    // technician when one waits and nothing is queued ahead of it, then the frame.
    add: async (payload) => {
      await app.hub.add({
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'bench',
        payload,
      });
    },
    stop: async () => {
      const stopped = reply('stopped');
      command({ type: 'stop' });
      await stopped;
      technicians.kill();
      await app.close();
      await database.close();
    },
  };
}

async function graphile(url: string, started: Started): Promise<System> {
  const logger = new Logger(() => () => undefined);
  const runner = await run({
    connectionString: url,
    concurrency: TECHNICIANS,
    maxPoolSize: CONNECTIONS - 10,
    noHandleSignals: true,
    pollInterval: 2000,
    logger,
    taskList: {
      noop: (payload) => {
        started(payload as Payload);
        return Promise.resolve();
      },
    },
  });
  const utils = await makeWorkerUtils({ connectionString: url, maxPoolSize: 10, logger });
  return {
    add: async (payload) => {
      await utils.addJob('noop', payload);
    },
    stop: async () => {
      await utils.release();
      await runner.stop();
    },
  };
}

async function pgBoss(url: string, started: Started): Promise<System> {
  const boss = new PgBoss({ connectionString: url, max: CONNECTIONS });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('noop');
  for (let w = 0; w < TECHNICIANS; w++) {
    await boss.work<Payload>(
      'noop',
      // 0.5 s is the shortest polling interval pg-boss accepts.
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      ([job]) => {
        if (job) {
          started(job.data);
        }
        return Promise.resolve();
      },
    );
  }
  return {
    add: async (payload) => {
      await boss.send('noop', payload);
    },
    stop: async () => {
      await boss.stop({ graceful: false, wait: false });
    },
  };
}

interface Figures {
  p50: number;
  p99: number;
  rate: number;
}

function report(name: string, phase: Phase, load: string): Figures {
  const p50 = percentile(phase.latencies, 50);
  const p99 = percentile(phase.latencies, 99);
  const rate = phase.latencies.length / phase.seconds;
  console.log(`${name}.latency_p50_ms: ${p50.toFixed(1)}`);
  console.log(`${name}.latency_p99_ms: ${p99.toFixed(1)}`);
  console.log(`${name}.jobs_per_second: ${rate.toFixed(0)}`);
  console.log(`${name}.load_average: ${load}`);
  return { p50, p99, rate };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

console.log(`jobs: ${JOBS}`);
console.log(`technicians: ${TECHNICIANS}`);
console.log(`producers: ${PRODUCERS}`);
console.log(`warmup_jobs: ${WARMUP}`);
console.log(`steady_rate_jobs_per_second: ${RATE}`);
console.log(`steady_seconds: ${RATE_SECONDS}`);
console.log(`connections_per_system: ${CONNECTIONS}`);
console.log(`load_average_at_start: ${load()}`);

const ONLY = process.env.BENCH_SYSTEMS?.split(',').map((name) => name.trim());
// In BENCH_SYSTEMS's order when given (to see whether running first or second matters).
const systems = (
  [
    ['loopdesk', 'loopdesk_bench', loopdesk],
    ['graphile_worker', 'loopdesk_bench_graphile', graphile],
    ['pg_boss', 'loopdesk_bench_pgboss', pgBoss],
  ] as const
)
  .filter(([name]) => !ONLY || ONLY.includes(name))
  .sort(([a], [b]) => (ONLY ? ONLY.indexOf(a) - ONLY.indexOf(b) : 0));
const figures: Record<string, { saturation: Figures; steady: Figures }> = {};
for (const [name, databaseName, start] of systems) {
  const url = await freshDatabase(databaseName);
  const { saturation, steady } = await measure((started) => start(url, started));
  const loadNow = load();
  figures[name] = {
    saturation: report(`saturation.${name}`, saturation, loadNow),
    steady: report(`steady.${name}`, steady, loadNow),
  };
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);
for (const mode of ['saturation', 'steady'] as const) {
  const ours = figures.loopdesk?.[mode];
  for (const peer of ['graphile_worker', 'pg_boss']) {
    const theirs = figures[peer]?.[mode];
    if (!ours || !theirs) {
      continue;
    }
    console.log(`${mode}.ratio.throughput_vs_${peer}: ${ratio(ours.rate, theirs.rate)}`);
    console.log(`${mode}.ratio.p50_latency_vs_${peer}: ${ratio(ours.p50, theirs.p50)}`);
    console.log(`${mode}.ratio.p99_latency_vs_${peer}: ${ratio(ours.p99, theirs.p99)}`);
  }
}
console.log(`load_average_at_end: ${load()}`);
process.exit(0);
