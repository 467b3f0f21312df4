import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;

// bigint (int8) and numeric come back as strings through pg: count(*) results are cast in SQL.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Marks a statement of the hot path (dispatch): PostgreSQL prepares it once per connection and
 * keeps its plan, instead of parsing and planning it on every call (bench/README.md, dispatch).
 * Only for statements whose text takes a bounded number of forms: each form is one prepared
 * statement on each connection.
 */
export const PREPARED = '/* prepared */ ';

/** Statement names by text: one short hash per form of a prepared statement. */
const preparedNames = new Map<string, string>();

/** Makes a pooled client run statements starting with PREPARED as named (prepared) ones. */
function prepareHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // Kysely calls query(text, values); every other call passes through unchanged.
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === 'string' && text.startsWith(PREPARED) && Array.isArray(values)) {
      let name = preparedNames.get(text);
      if (!name) {
        name = `ld_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
        preparedNames.set(text, name);
      }
      return query({ name, text, values });
    }
    return query(...args);
  };
}

/**
 * The connection setting that says this node has a webhook: a trigger drops webhook delivery
 * rows written on connections without it (migration 015), so each node's outbox writers follow
 * its own `ASSISTANT_WEBHOOK_URL`.
 */
export const WEBHOOK_DELIVERIES_SETTING = 'loopdesk.webhook_deliveries';

/** What the metrics read of a connection pool (pg.Pool's counters and its size). */
export interface PoolUse {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly max: number;
}

/** A pool's use, read live. */
function poolUse(pool: pg.Pool): PoolUse {
  return {
    get totalCount() {
      return pool.totalCount;
    },
    get idleCount() {
      return pool.idleCount;
    },
    get waitingCount() {
      return pool.waitingCount;
    },
    max: pool.options.max,
  };
}

/** The connections of the audit lane on PostgreSQL: as many as the audit writer's inserts in flight. */
export const AUDIT_CONNECTIONS = 3;

export interface DatabaseHandle {
  readonly db: Database;
  /**
   * The dispatch lane: a connection of its own for the claims that hand a new job to a waiting
   * technician, so that a burst of submissions or API calls on the shared pool never delays them.
   * With embedded PGlite (one connection) it is `db` itself.
   */
  readonly dispatchDb: Database;
  /**
   * The audit lane: the pool the per-route patient-data entries are written through, straight in
   * node-postgres without Kysely (platform/audit-writer.ts). On PostgreSQL up to three connections
   * of its own, so that an entry's insert runs beside the route's statements; with embedded
   * PGlite the one pool of `db` (a transaction holds its one client, so an entry never lands
   * inside another caller's transaction).
   */
  readonly auditPool: pg.Pool;
  readonly kind: 'pglite' | 'postgres';
  /** The schema the app's tables live in. */
  readonly schema: string;
  /** The connection pools by name (`main`, and `dispatch` on PostgreSQL), for the metrics. */
  readonly pools: Readonly<Record<string, PoolUse>>;
  /** PGlite only: the data folder as a tarball (what `pgliteLoadDataDir` starts from). */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

/**
 * Opens Kysely over a `pg.Pool`: PostgreSQL when a URL is given, otherwise embedded PGlite
 * persisted in `pgliteDataDir` (`memory://` keeps it in memory).
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  pgliteDataDir: string;
  poolSize?: number;
  /** PostgreSQL only: work inside this schema (created when missing); tests use one each. */
  schema?: string;
  /** Whether this node has a webhook: its outbox writers then record deliveries. */
  webhookDeliveries: boolean;
  /** PGlite only: start from this dump of a data folder (`dumpDataDir`) instead of an empty one. */
  pgliteLoadDataDir?: Blob;
}): Promise<DatabaseHandle> {
  const deliveries = options.webhookDeliveries ? 'on' : 'off';
  if (options.databaseUrl) {
    if (options.schema) {
      if (!/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
        throw new Error(`Invalid schema name ${options.schema}`);
      }
      const admin = new pg.Client({ connectionString: options.databaseUrl });
      await admin.connect();
      await admin.query(`create schema if not exists ${options.schema}`);
      await admin.end();
    }
    const settings = [
      ...(options.schema ? [`-c search_path=${options.schema}`] : []),
      `-c ${WEBHOOK_DELIVERIES_SETTING}=${deliveries}`,
    ].join(' ');
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      options: settings,
    });
    pool.on('connect', prepareHotStatements);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const lane = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 1,
      options: settings,
    });
    lane.on('connect', prepareHotStatements);
    const dispatchDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: lane }) });
    const auditPool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: AUDIT_CONNECTIONS,
      options: settings,
    });
    return {
      db,
      dispatchDb,
      auditPool,
      kind: 'postgres',
      schema: options.schema ?? 'public',
      pools: { main: poolUse(pool), dispatch: poolUse(lane), audit: poolUse(auditPool) },
      close: async () => {
        await Promise.all([db.destroy(), dispatchDb.destroy(), auditPool.end()]);
      },
    };
  }
  if (!options.pgliteDataDir.startsWith('memory://')) {
    mkdirSync(options.pgliteDataDir, { recursive: true });
  }
  const pglite = await PGlite.create(
    options.pgliteDataDir,
    options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : {},
  );
  // One session for the whole process: the setting holds for every statement.
  await pglite.exec(`set ${WEBHOOK_DELIVERIES_SETTING} = '${deliveries}'`);
  // PGlite is one connection: the pool holds exactly one client (poolSize = 1).
  const pool = new pg.Pool(createPgConfig(pglite));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dispatchDb: db,
    auditPool: pool,
    kind: 'pglite',
    schema: 'public',
    // One client over the single PGlite session: dispatch shares it.
    pools: { main: poolUse(pool) },
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

/** Whether the database answers. */
export async function isReachable(db: Database): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
