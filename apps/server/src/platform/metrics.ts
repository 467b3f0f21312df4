import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BlockList, isIP } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { forbidden, unauthorized } from './errors.ts';

/**
 * Prometheus metrics at GET /metrics (README, Operations). Everything is read at scrape time or
 * recorded in memory: a scrape costs a few small indexed queries, and nothing is written. The
 * platform measures HTTP, the pools and the process; each module registers the gauges of its own
 * tables and state on `app.metrics` (queue depths: modules/jobs; sockets: modules/realtime;
 * outbox lag: modules/integration), so their SQL stays in their repositories.
 */

/** What modules add to this app's /metrics. */
export interface Metrics {
  /** Where a module registers its metrics (`registers: [app.metrics.registry]`). */
  readonly registry: Registry;
  /**
   * A gauge read from the database at scrape time: the reads run one after another before each
   * scrape (a scrape holds at most one connection); a failed read leaves its gauge out of that
   * scrape and counts in loopdesk_metrics_collect_failures_total.
   */
  databaseGauge<L extends string>(options: {
    name: string;
    help: string;
    labelNames?: readonly L[];
    read: (gauge: Gauge<L>) => Promise<void>;
  }): Gauge<L>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export const METRICS_PATH = '/metrics';

/** Where the process-wide metrics live: the runtime's, and those recorded outside a request. */
const processRegistry = new Registry();
let defaultsCollected = false;

/**
 * Time from a job being stored (or put back in its queue) to its frame going out to a technician.
 * Process-wide rather than per app, so the hub records it with one call and no wiring.
 */
const dispatchLatency = new Histogram({
  name: 'loopdesk_dispatch_latency_seconds',
  help: 'Time from a job entering its queue (stored, or returned) to its frame being sent to a technician, by queue.',
  labelNames: ['queue'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
  registers: [processRegistry],
});

/** Records a job frame sent to a technician: `queuedAt` is the job's `queued_at`. */
export function observeDispatch(queue: string, queuedAt: Date | string): void {
  const seconds = (Date.now() - new Date(queuedAt).getTime()) / 1000;
  // Clocks of the database and this node may differ by a little: never a negative latency.
  dispatchLatency.observe({ queue }, Math.max(0, seconds));
}

/**
 * Where a job's time goes inside a node, step by step (bench/cluster reads it): the API's key
 * check, create transaction and announcement, a hand-off received from another node, the frame
 * sent, the answer's completing statement and what follows it, and a claim pass.
 */
const jobSteps = new Histogram({
  name: 'loopdesk_job_step_seconds',
  help: "Time spent in each step of a job's path through this node (API create, hand-off, frame, answer, claim pass).",
  labelNames: ['step'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [processRegistry],
});

/** The steps of loopdesk_job_step_seconds. */
export type JobStep =
  | 'api.authenticate'
  | 'api.create'
  | 'api.announce'
  | 'hand-off.receive'
  | 'frame.send'
  | 'answer.check'
  | 'answer.complete'
  | 'answer.after'
  | 'dispatch.pass';

/** Records a step of a job's path that began at `startedAt` (performance.now()). */
export function observeStep(step: JobStep, startedAt: number): void {
  jobSteps.observe({ step }, (performance.now() - startedAt) / 1000);
}

/** Loopback: who reads /metrics without a token when neither variable is set. */
const LOOPBACK = ['127.0.0.0/8', '::1'];

/** Builds the address rule from METRICS_ALLOW entries (checked by the configuration). */
function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(address, type);
    } else {
      list.addSubnet(address, Number(prefix), type);
    }
  }
  return list;
}

/** The peer's own address, IPv4-mapped IPv6 (`::ffff:10.0.0.7`) read as IPv4. */
function peerAddress(request: FastifyRequest): { address: string; type: 'ipv4' | 'ipv6' } | null {
  const raw = request.socket.remoteAddress;
  if (!raw) {
    return null;
  }
  const address = raw.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

export interface MetricsOptions {
  readonly config: Config;
  readonly database: DatabaseHandle;
}

/**
 * GET /metrics in the Prometheus text format, guarded by METRICS_TOKEN (a bearer token, from any
 * address) or METRICS_ALLOW (addresses served without it; loopback by default when no token is
 * set). Register it before the routes: its onResponse hook times every request.
 */
export const metricsPlugin = fp(
  (app: FastifyInstance, { config, database }: MetricsOptions) => {
    if (!defaultsCollected) {
      collectDefaultMetrics({ register: processRegistry });
      defaultsCollected = true;
    }
    const registry = new Registry();

    const httpDuration = new Histogram({
      name: 'loopdesk_http_request_duration_seconds',
      help: 'HTTP request latency, by route pattern (never the raw URL), method and status class.',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      // The pattern the router matched (`/api/v1/jobs/:id`); requests that matched none share one.
      const route = request.routeOptions.url ?? 'unmatched';
      httpDuration.observe(
        {
          route,
          method: request.method,
          status_class: `${Math.floor(reply.statusCode / 100)}xx`,
        },
        reply.elapsedTime / 1000,
      );
    });

    const scrapeFailures = new Counter({
      name: 'loopdesk_metrics_collect_failures_total',
      help: 'Scrapes in which a database-backed gauge could not be read (it is left out of that scrape).',
      labelNames: ['gauge'] as const,
      registers: [registry],
    });
    /**
     * The gauges counted in SQL, read one query after another before each scrape (a scrape holds
     * at most one connection, and the pool gauges are read before it takes any).
     */
    const databaseReads: (() => Promise<void>)[] = [];
    app.decorate('metrics', {
      registry,
      databaseGauge({ name, help, labelNames, read }) {
        const gauge = new Gauge({
          name,
          help,
          labelNames: labelNames ?? [],
          registers: [registry],
        });
        databaseReads.push(async () => {
          try {
            await read(gauge);
          } catch (error) {
            gauge.reset();
            scrapeFailures.inc({ gauge: name });
            app.log.warn({ err: error, gauge: name }, 'metrics: a gauge could not be read');
          }
        });
        return gauge;
      },
    } satisfies Metrics);

    const poolConnections: Gauge<'pool' | 'state'> = new Gauge({
      name: 'loopdesk_db_pool_connections',
      help: 'Database connections of each pool: open in all (total), of which idle; max is its size.',
      labelNames: ['pool', 'state'] as const,
      registers: [registry],
      collect: () => {
        for (const [name, pool] of Object.entries(database.pools)) {
          poolConnections.set({ pool: name, state: 'total' }, pool.totalCount);
          poolConnections.set({ pool: name, state: 'idle' }, pool.idleCount);
          poolConnections.set({ pool: name, state: 'max' }, pool.max);
        }
      },
    });
    const poolWaiting: Gauge<'pool'> = new Gauge({
      name: 'loopdesk_db_pool_waiting',
      help: 'Queries waiting for a free connection of each pool.',
      labelNames: ['pool'] as const,
      registers: [registry],
      collect: () => {
        for (const [name, pool] of Object.entries(database.pools)) {
          poolWaiting.set({ pool: name }, pool.waitingCount);
        }
      },
    });

    const token = config.env.METRICS_TOKEN;
    const tokenDigest = token ? sha256(token) : null;
    const allowed = allowList(config.env.METRICS_ALLOW ?? (token ? [] : LOOPBACK));

    app.get(
      METRICS_PATH,
      // Scraped every few seconds: only failures are logged (refusals reach the audit trail).
      { logLevel: 'warn' },
      async (request, reply) => {
        const header = request.headers.authorization;
        if (header !== undefined) {
          const presented = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
          // Compared as digests: equal lengths, and no timing hint about the token.
          if (!tokenDigest || !timingSafeEqual(sha256(presented), tokenDigest)) {
            throw unauthorized(
              'The metrics token is not valid: send METRICS_TOKEN as a bearer token.',
              { realm: 'metrics', error: 'invalid_token' },
            );
          }
        } else {
          // A request relayed by a proxy carries its client's address in a header this check does
          // not trust: only a direct connection from an allowed address is served without a token.
          const peer = peerAddress(request);
          const relayed =
            request.headers['x-forwarded-for'] !== undefined ||
            request.headers.forwarded !== undefined;
          if (relayed || !peer || !allowed.check(peer.address, peer.type)) {
            if (tokenDigest) {
              throw unauthorized('Send METRICS_TOKEN as a bearer token to read the metrics.', {
                realm: 'metrics',
              });
            }
            throw forbidden(
              `Metrics are served only to the addresses in METRICS_ALLOW (loopback by default) or with METRICS_TOKEN; this request came from ${relayed ? 'behind a proxy' : (peer?.address ?? 'an unknown address')}.`,
            );
          }
        }
        for (const read of databaseReads) {
          await read();
        }
        const [own, shared] = await Promise.all([registry.metrics(), processRegistry.metrics()]);
        return reply.type(registry.contentType).send(`${own}\n${shared}`);
      },
    );
  },
  { name: 'metrics', dependencies: ['errors'] },
);
