import pg from 'pg';
import type { AuditEntry } from './audit.ts';
import { AUDIT_CONNECTIONS, type DatabaseHandle } from './db/database.ts';

/** Where an audited request came from. */
export interface AuditOrigin {
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
}

/**
 * Appends audit entries on the request path: each caller's promise settles when its own row is in
 * the database (with the row's id on PostgreSQL, null on PGlite), or its insert failed, never
 * before. Entries that arrive while an insert is in
 * flight are appended together by the next one, one multi-row statement (a group commit): a lone
 * request pays one statement, a burst of them far fewer than one each. A failed batch is retried
 * entry by entry, so one bad entry never costs another its row.
 */
export interface AuditWriter {
  append(entry: AuditEntry, origin: AuditOrigin): Promise<number | null>;
}

/** At most this many entries in one statement. */
const MAX_BATCH = 100;

export const COLUMNS = `insert into audit_events (action, outcome, actor_id, actor_email, resource_type,
  resource_id, status_code, ip, user_agent, request_id, details)`;

/**
 * Text as the database stores it: NUL (which would also end a statement of literals) and lone
 * surrogates replaced by U+FFFD.
 */
const clean = <T extends string | null | undefined>(value: T): T =>
  (typeof value === 'string'
    ? value
        .replace(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
          '\ufffd',
        )
        .replaceAll(String.fromCharCode(0), '\ufffd')
    : value) as T;

/** Text as an SQL literal (cleaned first). */
const sqlLiteral = (value: string | null | undefined): string =>
  value === null || value === undefined ? 'null' : pg.escapeLiteral(clean(value));

const statusLiteral = (status: number | null | undefined): string =>
  status === null || status === undefined ? 'null' : String(Math.trunc(Number(status)));

/** The values of one entry as literals, in the order of COLUMNS. */
export function literals(entry: AuditEntry, origin: AuditOrigin): string[] {
  return [
    sqlLiteral(entry.action),
    sqlLiteral(entry.outcome),
    `${sqlLiteral(entry.actorId)}::uuid`,
    sqlLiteral(entry.actorEmail),
    sqlLiteral(entry.resourceType),
    sqlLiteral(entry.resourceId),
    statusLiteral(entry.statusCode),
    sqlLiteral(origin.ip),
    sqlLiteral(origin.userAgent),
    sqlLiteral(origin.requestId),
    `${sqlLiteral(JSON.stringify(entry.details ?? {}))}::jsonb`,
  ];
}

type Pending = {
  readonly entry: AuditEntry;
  readonly origin: AuditOrigin;
  readonly resolve: (id: number | null) => void;
  readonly reject: (error: unknown) => void;
};

/** The one-entry statement: prepared once per connection of the audit lane. */
const ONE_ENTRY = 'ld_audit_entry';

/**
 * PostgreSQL's: it sets `synchronous_commit = off` for itself and returns the row's id, sent with
 * parameters (node-postgres parses a named statement once per connection).
 */
const ONE_ENTRY_POSTGRES = {
  name: ONE_ENTRY,
  text: `${COLUMNS}
  select $1, $2, $3::uuid, $4, $5, $6, $7::integer, $8, $9, $10, $11::jsonb
  from (select set_config('synchronous_commit', 'off', true)) as unsynced
  returning id`,
};

/** PGlite's: prepared in its one session by SQL, run by `execute` with literals. */
const PREPARE_ONE_ENTRY_PGLITE = `prepare ${ONE_ENTRY}(text, text, uuid, text, text, text, integer,
  text, text, text, jsonb) as ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

/** PostgreSQL's error codes: a prepared statement that does not exist, or exists already. */
const UNDEFINED_PREPARED_STATEMENT = '26000';
const DUPLICATE_PREPARED_STATEMENT = '42P05';

/** The values of one entry as parameters of ONE_ENTRY_POSTGRES. */
const parameters = (entry: AuditEntry, origin: AuditOrigin): unknown[] => [
  clean(entry.action),
  entry.outcome,
  clean(entry.actorId ?? null),
  clean(entry.actorEmail ?? null),
  clean(entry.resourceType ?? null),
  clean(entry.resourceId ?? null),
  entry.statusCode ?? null,
  clean(origin.ip),
  clean(origin.userAgent),
  clean(origin.requestId),
  JSON.stringify(entry.details ?? {}),
];

/** The ids of the rows an insert returned, whether it came alone or after a `set local`. */
function idsOf(result: pg.QueryResult | pg.QueryResult[]): number[] {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return (last?.rows ?? []).map((row: { id: number }) => Number(row.id));
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * The writer of one database, through its audit lane (`DatabaseHandle.auditPool`: node-postgres
 * without Kysely, whose compile and driver layers cost about as much Node.js CPU as the insert).
 * One entry is a prepared statement (parsed and planned once); several are one multi-row
 * statement of literals. The statements differ by store, each measured by bench/audit.ts:
 *
 * - PostgreSQL: the statement sets `synchronous_commit = off` for itself (the row is in the
 *   database, seen by every reader, before the caller goes on; PostgreSQL's WAL writer flushes it
 *   within a few hundred milliseconds, so only a crash of PostgreSQL itself in that window could
 *   lose it; a batch does it by `set local` in the same implicit transaction) and returns the
 *   row's id (for a correction, see platform/audit.ts). Up to three inserts fly at once, on the
 *   lane's own connections.
 * - Embedded PGlite: simple-protocol statements only (`execute` of the prepared one, or a batch's
 *   literals). PGlite answers the extended protocol (parse, bind, describe, execute, sync) several
 *   times slower than one simple query, and its single connection serialises everything, so one
 *   insert flies at a time; no `returning` (reading the row back costs about half the insert).
 *   The commit keeps synchronous commit: single-user PGlite has no WAL writer that would write an
 *   unsynced commit's WAL later, and its fsync is a no-op, so the synchronous commit costs one
 *   write to the data folder and is what keeps the row through a crash of the process.
 */
export function createAuditWriter(
  database: Pick<DatabaseHandle, 'auditPool' | 'kind'>,
): AuditWriter {
  const { auditPool: pool, kind } = database;
  const flights = kind === 'postgres' ? AUDIT_CONNECTIONS : 1;
  const queue: Pending[] = [];
  let flying = 0;

  /**
   * One statement on a client of the lane, given back whole whatever the outcome (`pool.query`
   * would close a client whose statement failed: with PGlite, its one session).
   */
  async function query(statement: string | pg.QueryConfig) {
    const client = await pool.connect();
    try {
      return await client.query(statement);
    } finally {
      client.release();
    }
  }

  /** PGlite: one entry by the prepared statement, prepared first when its session lacks it. */
  async function executeOne(entry: AuditEntry, origin: AuditOrigin): Promise<void> {
    const execute = `execute ${ONE_ENTRY}(${literals(entry, origin).join(', ')})`;
    try {
      await query(execute);
    } catch (error) {
      if (codeOf(error) !== UNDEFINED_PREPARED_STATEMENT) {
        throw error;
      }
      await query(PREPARE_ONE_ENTRY_PGLITE).catch((prepare: unknown) => {
        if (codeOf(prepare) !== DUPLICATE_PREPARED_STATEMENT) {
          throw prepare;
        }
      });
      await query(execute);
    }
  }

  async function insert(batch: readonly Pending[]): Promise<number[]> {
    if (batch.length === 1) {
      const [{ entry, origin }] = batch as [Pending];
      if (kind === 'postgres') {
        return idsOf(await query({ ...ONE_ENTRY_POSTGRES, values: parameters(entry, origin) }));
      }
      await executeOne(entry, origin);
      return [];
    }
    const rows = batch.map((p) => `(${literals(p.entry, p.origin).join(', ')})`).join(',\n');
    if (kind === 'postgres') {
      // PostgreSQL returns the rows of an insert ... values in the order of its values.
      return idsOf(
        await query(
          `set local synchronous_commit = off;\n${COLUMNS}\nvalues ${rows}\nreturning id`,
        ),
      );
    }
    await query(`${COLUMNS}\nvalues ${rows}`);
    return [];
  }

  async function fly(): Promise<void> {
    flying += 1;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          const ids = await insert(batch);
          for (const [index, p] of batch.entries()) {
            p.resolve(ids[index] ?? null);
          }
        } catch (error) {
          if (batch.length === 1) {
            batch[0]?.reject(error);
            continue;
          }
          // Each entry on its own: only the one the database refuses fails.
          for (const p of batch) {
            await insert([p]).then((ids) => p.resolve(ids[0] ?? null), p.reject);
          }
        }
      }
    } finally {
      flying -= 1;
    }
  }

  return {
    append(entry, origin) {
      return new Promise<number | null>((resolve, reject) => {
        queue.push({ entry, origin, resolve, reject });
        if (flying < flights) {
          void fly();
        }
      });
    },
  };
}
