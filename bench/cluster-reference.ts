/**
 * bench/cluster's producer (jobs offered at a steady rate) and its reference: graphile-worker's
 * add → start latency at the same rate on the same PostgreSQL, a no-op task.
 */
import { randomBytes } from 'node:crypto';
import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { dropDatabase, freshDatabase } from './databases.ts';
import { clock } from './technicians.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Posts one job a tick at `rate` per second for `seconds`, each with `post(i)`; waits for all. */
export async function offer(rate: number, seconds: number, post: (i: number) => Promise<void>) {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) {
      await sleep(wait);
    }
    inFlight.push(post(i));
  }
  await Promise.all(inFlight);
  return { total, seconds: (performance.now() - started) / 1000 };
}

/** graphile-worker at the same rate on the same PostgreSQL: addJob → task started. */
export async function graphileReference(rate: number, seconds: number) {
  const name = `loopdesk_bench_cluster_gw_${randomBytes(3).toString('hex')}`;
  const url = await freshDatabase(name);
  const logger = new Logger(() => () => undefined);
  const latencies: number[] = [];
  const runner = await run({
    connectionString: url,
    concurrency: 50,
    maxPoolSize: 11,
    noHandleSignals: true,
    pollInterval: 2000,
    logger,
    taskList: {
      noop: (payload) => {
        latencies.push(clock() - (payload as { t0: number }).t0);
        return Promise.resolve();
      },
    },
  });
  const utils = await makeWorkerUtils({ connectionString: url, maxPoolSize: 10, logger });
  const { total } = await offer(rate, seconds, async (i) => {
    await utils.addJob('noop', { t0: clock(), i });
  });
  const deadline = performance.now() + 30_000;
  while (latencies.length < total && performance.now() < deadline) {
    await sleep(100);
  }
  await utils.release();
  await runner.stop();
  await dropDatabase(name);
  return { total, latencies };
}
