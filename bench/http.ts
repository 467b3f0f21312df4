/**
 * bench/http: the authenticated request path. At 20 connections, the portal's queue-size poll
 * (`GET /internal/queues/federated/_size`) and `GET /internal/users/me`, each with a signed-in
 * user's access token, against bare Fastify answering a constant in the same run; on embedded
 * PGlite (a data folder of its own, as the default) and on the local PostgreSQL. Prints req/s,
 * p50/p99, the server thread's CPU time per request, the ratio to bare Fastify measured just
 * before, and whether the goal is met (≥ 0.5× bare Fastify, p99 under 20 ms). The server logs as
 * deployed (LOG_LEVEL info, one line per request that is not a poll), into /dev/null. Not a test:
 * nothing asserts.
 *
 *   npm run bench:http   (BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_STORES,
 *                         BENCH_LOG_LEVEL)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openDatabase } from '../apps/server/src/platform/db/database.ts';
import { migrateToLatest } from '../apps/server/src/platform/db/migrate.ts';
import { freshPostgresDatabase } from '../apps/server/src/test/processes.ts';
import { tokenForRoles } from '../apps/server/src/test/tokens.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const STORES = (process.env.BENCH_STORES ?? 'pglite,postgres').split(',');
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** The goal of issue 18 item 11, at 20 connections. */
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 20;

interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly requests: number;
  /** CPU time of the server's thread (this one; the load runs in a worker) per request, µs. */
  readonly cpuUs?: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function get(agent: http.Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

/**
 * The load runs in a worker thread of its own, so that the server's event loop is not also the
 * client's: CONNECTIONS loops on keep-alive connections, after a one-second warm-up.
 */
function load(
  url: string,
  headers: Record<string, string> = {},
  seconds = SECONDS,
): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { url, headers, seconds } });
    let cpu0: NodeJS.CpuUsage | undefined;
    worker.on('message', (message: 'measuring' | Figures) => {
      if (message === 'measuring') {
        cpu0 = process.threadCpuUsage();
        return;
      }
      const cpu = process.threadCpuUsage(cpu0);
      resolve({ ...message, cpuUs: (cpu.user + cpu.system) / Math.max(1, message.requests) });
    });
    worker.once('error', reject);
  });
}

async function loadHere(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Figures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL(url);
  const run = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          const status = await get(agent, target, headers).catch(() => 0);
          if (record) {
            latencies.push(performance.now() - t0);
          }
          if (status !== 200) {
            errors += 1;
          }
        }
      }),
    );
    return { latencies, errors };
  };
  await run(1000, false);
  parentPort?.postMessage('measuring');
  const started = performance.now();
  const { latencies, errors } = await run(seconds * 1000, true);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    requests: latencies.length,
  };
}

interface Outcome {
  readonly name: string;
  readonly ratio: number;
  readonly p99: number;
  readonly met: boolean;
}
const outcomes: Outcome[] = [];

function print(name: string, figures: Figures, bare?: Figures): void {
  const cpu = figures.cpuUs === undefined ? '' : `  server CPU ${figures.cpuUs.toFixed(0)} µs/req`;
  let verdict = '';
  if (bare) {
    const ratio = figures.rps / bare.rps;
    const met = ratio >= GOAL_RATIO && figures.p99 < GOAL_P99_MS && figures.errors === 0;
    outcomes.push({ name, ratio, p99: figures.p99, met });
    verdict = `  ratio ${ratio.toFixed(2)}× bare Fastify  goal ${met ? 'met' : 'NOT met'}`;
  }
  console.log(
    `${name}: ${Math.round(figures.rps)} req/s  p50 ${figures.p50.toFixed(1)} ms  p99 ${figures.p99.toFixed(1)} ms  errors ${figures.errors}${cpu}${verdict}`,
  );
}

const loadAverage = () =>
  loadavg()
    .map((figure) => figure.toFixed(2))
    .join(' ');

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') {
    throw new Error('no port');
  }
  return `http://127.0.0.1:${address.port}`;
}

async function bareFastify(): Promise<Figures> {
  const bare = Fastify({ logger: false });
  bare.get('/size', () => ({ count: 0 }));
  const base = await listen(bare);
  const figures = await load(`${base}/size`);
  await bare.close();
  return figures;
}

async function loopdesk(store: string): Promise<void> {
  const folder = store === 'pglite' ? mkdtempSync(path.join(tmpdir(), 'bench-http-')) : undefined;
  const fresh =
    store === 'postgres' ? await freshPostgresDatabase(ADMIN_URL, 'bench_http') : undefined;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL,
      WEB_DIST: '/nonexistent-web-dist',
      DEMO: '0',
    },
    { pgliteDataDir: folder ?? 'memory://' },
  );
  const database = await openDatabase({
    databaseUrl: fresh?.url,
    pgliteDataDir: folder ?? 'memory://',
    webhookDeliveries: false,
  });
  try {
    await migrateToLatest(database);
    // As deployed: pino at LOG_LEVEL, one line per request (polls at debug), here into /dev/null.
    const app = await buildApp({
      config,
      database,
      logger: { level: config.env.LOG_LEVEL, file: '/dev/null' },
    });
    const base = await listen(app);
    const { token } = await tokenForRoles({ database, config }, 'bench@http.test', ['annotator']);
    const auth = { authorization: `Bearer ${token}` };
    // Every route warmed up (compiled by the JIT) before the first measurement, so that the
    // first route measured is not the one that pays for it.
    for (const route of ['/internal/queues/federated/_size', '/healthz', '/internal/users/me']) {
      await load(`${base}${route}`, auth, 2);
    }
    // Bare Fastify just before each, so that both see the same machine.
    const bareForSize = await bareFastify();
    print('bare fastify', bareForSize);
    print(
      `${store} GET /internal/queues/federated/_size`,
      await load(`${base}/internal/queues/federated/_size`, auth),
      bareForSize,
    );
    // Loopdesk's floor: an unauthenticated route through the same hooks (headers, audit, metrics).
    const bareForHealth = await bareFastify();
    print('bare fastify', bareForHealth);
    print(`${store} GET /healthz`, await load(`${base}/healthz`), bareForHealth);
    const bareForMe = await bareFastify();
    print('bare fastify', bareForMe);
    print(
      `${store} GET /internal/users/me`,
      await load(`${base}/internal/users/me`, auth),
      bareForMe,
    );
    await app.close();
  } finally {
    await database.close();
    await fresh?.drop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

if (isMainThread) {
  console.log(
    `connections: ${CONNECTIONS}  seconds per measurement: ${SECONDS}  log level: ${LOG_LEVEL}  load average: ${loadAverage()}`,
  );
  for (const store of STORES) {
    await loopdesk(store);
  }
  console.log(`load average at the end: ${loadAverage()}`);
  const missed = outcomes.filter((outcome) => !outcome.met);
  console.log(
    `goal (≥ ${GOAL_RATIO}× bare Fastify in the same run, p99 under ${GOAL_P99_MS} ms, at ${CONNECTIONS} connections): ` +
      (missed.length === 0
        ? `met by all ${outcomes.length} routes`
        : `NOT met by ${missed.map((o) => `${o.name} (${o.ratio.toFixed(2)}×, p99 ${o.p99.toFixed(1)} ms)`).join('; ')}`),
  );
} else {
  const { url, headers, seconds } = workerData as {
    url: string;
    headers: Record<string, string>;
    seconds: number;
  };
  parentPort?.postMessage(await loadHere(url, headers, seconds));
}
