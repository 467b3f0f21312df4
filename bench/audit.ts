/**
 * bench/audit: what the audit trail costs a patient-data route. Two apps in one process, each on
 * a database of its own (embedded PGlite by default; PostgreSQL with BENCH_DATABASE_URL): one as
 * shipped (the entry appended to the node's audit journal, in a folder under os.tmpdir() on this
 * machine's disk, and moved into `audit_events` by the journal's flusher every
 * AUDIT_JOURNAL_FLUSH_MS), one whose journal takes nothing and whose database handle drops every
 * insert into `audit_events` (the peer: the same route without the audit write). Both hold the
 * same conversation with BENCH_MESSAGES messages; `GET /api/v1/conversations/:id` (a
 * `patientData: 'read'` route, audited on every call) is injected BENCH_ROUNDS × BENCH_BATCH
 * times on each, the two sides alternating batch by batch so that they share the machine's noise.
 * The flusher runs inside the audited side's batches (a batch lasts longer than the interval), and
 * each audited batch ends with a flush of what is left, inside its CPU measure: the CPU per request
 * includes every entry's way into the table. Prints p50/p99 and this process's CPU per request
 * per side, and their overheads; the goal is under 10% for both. Not a test: nothing here asserts.
 *
 *   npm run bench:audit   (BENCH_DATABASE_URL, BENCH_ROUNDS, BENCH_BATCH, BENCH_MESSAGES,
 *   AUDIT_JOURNAL_FLUSH_MS)
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/platform/db/database.ts';
import { migrateToLatest } from '../apps/server/src/platform/db/migrate.ts';
import { tokenForRoles } from '../apps/server/src/test/tokens.ts';

const PG_URL = process.env.BENCH_DATABASE_URL;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The database handle with every insert into the audit trail dropped (the peer without it). */
function withoutAuditWrites(database: DatabaseHandle): DatabaseHandle {
  const noop = { values: () => ({ execute: () => Promise.resolve([]) }) };
  const db = new Proxy(database.db, {
    get(target, property) {
      if (property === 'getExecutor') {
        // Raw statements (the per-route audit of patient data) run through the executor.
        const executor = target.getExecutor();
        return () =>
          new Proxy(executor, {
            get(inner, name) {
              if (name === 'executeQuery') {
                return (query: { sql: string }, ...rest: unknown[]) => {
                  const run = (...args: unknown[]) =>
                    (inner.executeQuery as (...a: unknown[]) => unknown)(...args);
                  return /insert into audit_events/i.test(query.sql)
                    ? Promise.resolve({ rows: [] })
                    : run(query, ...rest);
                };
              }
              const value: unknown = Reflect.get(inner, name, inner);
              return typeof value === 'function' ? (value as () => unknown).bind(inner) : value;
            },
          });
      }
      if (property === 'insertInto') {
        return (table: string) =>
          table === 'audit_events' ? noop : target.insertInto(table as 'audit_events');
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  // The audit lane (the per-route entries): every insert answered at once with an id of 0.
  const dropInserts = (client: pg.PoolClient) =>
    new Proxy(client, {
      get(target, property) {
        if (property === 'query') {
          return (query: string | { text: string }, ...rest: unknown[]) =>
            /insert into audit_events|^execute ld_audit_entry\(/i.test(
              typeof query === 'string' ? query : query.text,
            )
              ? Promise.resolve({ rows: [{ id: 0 }] })
              : (target.query as (...a: unknown[]) => unknown)(query, ...rest);
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
  const auditPool = new Proxy(database.auditPool, {
    get(target, property) {
      if (property === 'connect') {
        return async () => dropInserts(await target.connect());
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { ...database, db, auditPool };
}

async function side(name: string, dropAudit: boolean) {
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (PG_URL) {
    const dbName = `bench_audit_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.href;
    drop = async () => {
      const again = new pg.Client({ connectionString: PG_URL });
      await again.connect();
      await again.query(`drop database if exists ${dbName} with (force)`);
      await again.end();
    };
  }
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PORT: '8080',
      PUBLIC_URL: 'http://127.0.0.1:8080',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent-web-dist',
      API_RATE_LIMIT: '1000000',
      ...(process.env.AUDIT_JOURNAL_FLUSH_MS
        ? { AUDIT_JOURNAL_FLUSH_MS: process.env.AUDIT_JOURNAL_FLUSH_MS }
        : {}),
    },
    { pgliteDataDir: 'memory://' },
  );
  const database = await openDatabase({
    databaseUrl,
    pgliteDataDir: 'memory://',
    webhookDeliveries: false,
  });
  await migrateToLatest(database);
  const app = await buildApp({
    config,
    database: dropAudit ? withoutAuditWrites(database) : database,
    logger: false,
  });
  await app.ready();
  if (dropAudit) {
    // The peer: the route's entry is built and handed to a journal that keeps nothing.
    app.auditJournal.append = () => undefined;
  }
  const admin = await tokenForRoles({ database, config }, 'bench@example.test', ['admin']);
  const created = await app.inject({
    method: 'POST',
    url: '/internal/integration/api-keys',
    headers: { authorization: `Bearer ${admin.token}` },
    payload: { name: 'bench' },
  });
  const key = created.json<{ key: string }>().key;
  const headers = { authorization: `Bearer ${key}` };
  await app.inject({
    method: 'PUT',
    url: '/api/v1/conversations/conv-bench',
    headers,
    payload: {
      tenant: 'acme',
      botConversationId: 'bot-conv-bench',
      consumer: { id: 'patient-bench', name: { given: 'Maya', family: 'Okafor' } },
    },
  });
  for (let i = 0; i < MESSAGES; i++) {
    await app.inject({
      method: 'POST',
      url: '/api/v1/conversations/conv-bench/messages',
      headers,
      payload: { id: `m${i}`, direction: i % 2 ? 'OUT' : 'IN', content: `message ${i}` },
    });
  }
  const auditRows = async () =>
    Number(
      (
        await database.db
          .selectFrom('audit_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await auditRows();
  const latencies: number[] = [];
  /** This process's CPU time per batch (µs): the app, and PGlite when embedded. */
  const cpuMicros: number[] = [];
  return {
    name,
    latencies,
    cpuMicros,
    async batch(count: number) {
      const cpu = process.cpuUsage();
      for (let i = 0; i < count; i++) {
        const start = performance.now();
        const response = await app.inject({
          method: 'GET',
          url: '/api/v1/conversations/conv-bench',
          headers,
        });
        latencies.push(performance.now() - start);
        if (response.statusCode !== 200) {
          throw new Error(`${name}: ${response.statusCode} ${response.body}`);
        }
      }
      // What the flusher has not moved yet, inside this batch's CPU (the peer's is empty).
      await app.auditJournal.flush();
      const used = process.cpuUsage(cpu);
      cpuMicros.push(used.user + used.system);
    },
    async auditRowsWritten() {
      await app.auditJournal.flush();
      return (await auditRows()) - before;
    },
    async close() {
      await app.close();
      await database.close();
      await drop?.();
    },
  };
}

async function main() {
  const store = PG_URL ? 'PostgreSQL' : 'embedded PGlite';
  const withAudit = await side('with the audit write', false);
  const withoutAudit = await side('without it', true);
  try {
    // Warm-up, then the two sides alternate batch by batch.
    await withAudit.batch(BATCH);
    await withoutAudit.batch(BATCH);
    for (const s of [withAudit, withoutAudit]) {
      s.latencies.length = 0;
      s.cpuMicros.length = 0;
    }
    const auditBefore = await withAudit.auditRowsWritten();
    for (let round = 0; round < ROUNDS; round++) {
      const [first, second] = round % 2 ? [withoutAudit, withAudit] : [withAudit, withoutAudit];
      await first.batch(BATCH);
      await second.batch(BATCH);
    }
    const requests = ROUNDS * BATCH;
    const cpuPerRequest = (s: { cpuMicros: number[] }) =>
      s.cpuMicros.reduce((a, b) => a + b, 0) / 1000 / requests;
    console.log(
      `audit bench on ${store}: GET /api/v1/conversations/:id (${MESSAGES} messages), ${requests} requests per side in ${ROUNDS} alternating batches`,
    );
    for (const s of [withAudit, withoutAudit]) {
      console.log(
        `${s.name}: p50 ${ms(percentile(s.latencies, 0.5))}, p99 ${ms(percentile(s.latencies, 0.99))}, CPU of this process ${ms(cpuPerRequest(s))} per request`,
      );
    }
    console.log(
      `audit rows written per request: with ${((await withAudit.auditRowsWritten()) - auditBefore) / requests}, without ${(await withoutAudit.auditRowsWritten()) / (requests + 2 * BATCH)}`,
    );
    const overhead =
      percentile(withAudit.latencies, 0.5) / percentile(withoutAudit.latencies, 0.5) - 1;
    const cpuOverhead = cpuPerRequest(withAudit) / cpuPerRequest(withoutAudit) - 1;
    console.log(
      `CPU overhead of the audit write in this process (the flusher's work included): ${(cpuOverhead * 100).toFixed(1)}% (goal under 10%: ${cpuOverhead < 0.1 ? 'met' : 'NOT met'})${PG_URL ? "; PostgreSQL's own CPU not counted" : ''}`,
    );
    console.log(
      `p50 overhead of the audit write: ${(overhead * 100).toFixed(1)}% (goal under 10%: ${overhead < 0.1 ? 'met' : 'NOT met'}; load average ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores)`,
    );
  } finally {
    await withAudit.close();
    await withoutAudit.close();
  }
}

await main();
