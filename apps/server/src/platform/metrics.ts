import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { BlockList, isIP } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { forbidden, unauthorized } from './errors.ts';

/**
 * Prometheus metrics at GET /metrics (README, Operations). Everything here is read at scrape time
 * or recorded in memory: a scrape costs two small indexed queries, and nothing is written.
 */

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

/** The hub's view the socket gauge needs (the app decorates itself with the hub as `hub`). */
interface SocketSource {
  sockets(): Iterable<{ readonly source: string }>;
}

const SOCKET_KINDS = ['federated', 'exceptions', 'priority'] as const;

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
    const { db } = database;

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
    /** Runs a gauge's query; a failure leaves the gauge out of this scrape rather than fail it. */
    async function reading(gauge: Gauge, name: string, read: () => Promise<void>) {
      try {
        await read();
      } catch (error) {
        gauge.reset();
        scrapeFailures.inc({ gauge: name });
        app.log.warn({ err: error, gauge: name }, 'metrics: a gauge could not be read');
      }
    }

    // Queue depths: live jobs only. Both arms are served by the partial indexes of the claim
    // (state = 'queued') and of the lease sweep (state = 'assigned'); completed jobs, which pile
    // up for ever, are never counted. Dead jobs are listed at GET /internal/jobs/_dead.
    const seenQueues = new Set<string>();
    const jobsGauge: Gauge<'queue' | 'state'> = new Gauge({
      name: 'loopdesk_jobs',
      help: 'Jobs waiting in (queued) or held from (assigned) each queue, counted at scrape time.',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
    });
    databaseReads.push(() =>
      reading(jobsGauge, 'loopdesk_jobs', async () => {
        const rows = await db
          .selectFrom('jobs')
          .select(['queue', sql<string>`'queued'`.as('state'), sql<number>`count(*)`.as('n')])
          .where('state', '=', 'queued')
          .groupBy('queue')
          .unionAll(
            db
              .selectFrom('jobs')
              .select(['queue', sql<string>`'assigned'`.as('state'), sql<number>`count(*)`.as('n')])
              .where('state', '=', 'assigned')
              .groupBy('queue'),
          )
          .execute();
        // A queue seen once shows 0 when it empties, rather than vanishing from the graph.
        for (const row of rows) {
          seenQueues.add(row.queue);
        }
        jobsGauge.reset();
        for (const queue of seenQueues) {
          jobsGauge.set({ queue, state: 'queued' }, 0);
          jobsGauge.set({ queue, state: 'assigned' }, 0);
        }
        for (const row of rows) {
          jobsGauge.set({ queue: row.queue, state: row.state }, Number(row.n));
        }
      }),
    );

    // Outbox lag. The pull feed's readers keep their cursor to themselves, so the server cannot
    // know how far behind they are; what it does know is the webhook: an event is late while its
    // delivery is neither delivered nor dead. The lag is the age of the oldest such event (0 when
    // none, or when this deployment has no webhook). Served by the partial index of due deliveries.
    const outboxLag: Gauge = new Gauge({
      name: 'loopdesk_outbox_lag_seconds',
      help: 'Age of the oldest outbox event whose webhook delivery is still pending (0 when none).',
      registers: [registry],
    });
    databaseReads.push(() =>
      reading(outboxLag, 'loopdesk_outbox_lag_seconds', async () => {
        const row = await db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
          .select(
            sql<number>`coalesce(extract(epoch from now() - min(e.created_at)), 0)::float8`.as(
              'lag',
            ),
          )
          .where('d.delivered_at', 'is', null)
          .where('d.dead_at', 'is', null)
          .executeTakeFirstOrThrow();
        outboxLag.set(Math.max(0, Number(row.lag)));
      }),
    );
    const deliveries: Gauge<'state'> = new Gauge({
      name: 'loopdesk_webhook_deliveries',
      help: 'Webhook deliveries still pending (retries included) and dead (awaiting an admin redelivery).',
      labelNames: ['state'] as const,
      registers: [registry],
    });
    databaseReads.push(() =>
      reading(deliveries, 'loopdesk_webhook_deliveries', async () => {
        const row = await db
          .selectFrom('webhook_deliveries')
          .select([
            sql<number>`count(*) filter (where delivered_at is null and dead_at is null)`.as(
              'pending',
            ),
            sql<number>`count(*) filter (where dead_at is not null)`.as('dead'),
          ])
          .where((eb) =>
            eb.or([
              eb.and([eb('delivered_at', 'is', null), eb('dead_at', 'is', null)]),
              eb('dead_at', 'is not', null),
            ]),
          )
          .executeTakeFirstOrThrow();
        deliveries.set({ state: 'pending' }, Number(row.pending));
        deliveries.set({ state: 'dead' }, Number(row.dead));
      }),
    );

    const sockets: Gauge<'kind'> = new Gauge({
      name: 'loopdesk_sockets_open',
      help: "Technician sockets open on this node, by kind (the socket's path).",
      labelNames: ['kind'] as const,
      registers: [registry],
      collect: () => {
        const counts = new Map<string, number>(SOCKET_KINDS.map((kind) => [kind, 0]));
        const hub: SocketSource | null = app.hasDecorator('hub') ? app.hub : null;
        for (const conn of hub?.sockets() ?? []) {
          counts.set(conn.source, (counts.get(conn.source) ?? 0) + 1);
        }
        for (const [kind, count] of counts) {
          sockets.set({ kind }, count);
        }
      },
    });

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
            void reply.header('www-authenticate', 'Bearer realm="metrics"');
            throw unauthorized(
              'The metrics token is not valid: send METRICS_TOKEN as a bearer token.',
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
              void reply.header('www-authenticate', 'Bearer realm="metrics"');
              throw unauthorized('Send METRICS_TOKEN as a bearer token to read the metrics.');
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
