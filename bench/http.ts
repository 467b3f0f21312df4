/**
 * bench/http: the authenticated request path. At 20 connections, the portal's queue-size poll
 * (`GET /internal/queues/federated/_size`) and `GET /internal/users/me`, each with a signed-in
 * user's access token, against bare Fastify answering a constant in the same run; on embedded
 * PGlite (a data folder of its own, as the default) and on the local PostgreSQL. Prints req/s,
 * p50/p99 and the ratio to bare Fastify. Not a test: nothing asserts.
 *
 *   npm run bench:http   (BENCH_DATABASE_URL, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_STORES)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
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

interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
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
function load(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { url, headers } });
    worker.once('message', (figures: Figures) => resolve(figures));
    worker.once('error', reject);
  });
}

async function loadHere(url: string, headers: Record<string, string>): Promise<Figures> {
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
  const started = performance.now();
  const { latencies, errors } = await run(SECONDS * 1000, true);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

function print(name: string, figures: Figures, bare?: Figures): void {
  const ratio = bare ? `  ratio ${(figures.rps / bare.rps).toFixed(2)}× bare Fastify` : '';
  console.log(
    `${name}: ${Math.round(figures.rps)} req/s  p50 ${figures.p50.toFixed(1)} ms  p99 ${figures.p99.toFixed(1)} ms  errors ${figures.errors}${ratio}`,
  );
}

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
      LOG_LEVEL: 'silent',
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
    const app = await buildApp({ config, database, logger: false });
    const base = await listen(app);
    const { token } = await tokenForRoles({ database, config }, 'bench@http.test', ['annotator']);
    const auth = { authorization: `Bearer ${token}` };
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
  console.log(`connections: ${CONNECTIONS}  seconds per measurement: ${SECONDS}`);
  for (const store of STORES) {
    await loopdesk(store);
  }
} else {
  const { url, headers } = workerData as { url: string; headers: Record<string, string> };
  parentPort?.postMessage(await loadHere(url, headers));
}
