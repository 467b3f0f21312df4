import { sql } from 'kysely';
import pg from 'pg';
import type { AuditEntry } from './audit.ts';
import type { DatabaseHandle } from './db/database.ts';

/** Where an audited request came from. */
export interface AuditOrigin {
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
}

/**
 * Appends audit entries on the request path: each caller's promise settles when its own row is in
 * the database (or its insert failed), never before. Entries that arrive while an insert is in
 * flight are appended together by the next one, one multi-row statement (a group commit): a lone
 * request pays one statement, a burst of them far fewer than one each. A failed batch is retried
 * entry by entry, so one bad entry never costs another its row.
 */
export interface AuditWriter {
  append(entry: AuditEntry, origin: AuditOrigin): Promise<void>;
  /**
   * Whether routes fold their entry into their own statement (`foldedInsert`). Meant for
   * PostgreSQL, where that saves a round trip; never on embedded PGlite, where the insert's own
   * work is the cost (no network) and one more simple-protocol statement costs less than the same
   * insert folded into an extended-protocol one (bench/audit.ts).
   */
  readonly folds: boolean;
  /**
   * The text that writes `entry` from within another statement: `with audit_entry as (insert
   * ...)` to put before that statement's `select`, without parameters (the values are escaped
   * literals). `found` (an SQL boolean) decides between `entry`'s outcome and status and
   * `otherwise`'s. On PostgreSQL the statement then commits without waiting for the disk flush,
   * like `append`'s.
   */
  foldedInsert(
    entry: AuditEntry,
    origin: AuditOrigin,
    found: string,
    otherwise: { outcome: AuditEntry['outcome']; statusCode: number },
  ): string;
}

/** At most this many entries in one statement. */
const MAX_BATCH = 100;

const COLUMNS = `insert into audit_events (action, outcome, actor_id, actor_email, resource_type,
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
export const sqlLiteral = (value: string | null | undefined): string =>
  value === null || value === undefined ? 'null' : pg.escapeLiteral(clean(value));

const statusLiteral = (status: number | null | undefined): string =>
  status === null || status === undefined ? 'null' : String(Math.trunc(Number(status)));

/** The values of one entry as literals, in the order of COLUMNS. */
function literals(entry: AuditEntry, origin: AuditOrigin): string[] {
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

/** Where a folded entry's text starts and ends in a route's statement (bench/audit.ts cuts it). */
export const FOLD_START = '/* audit: */';
export const FOLD_END = '/* :audit */';

type Pending = {
  readonly entry: AuditEntry;
  readonly origin: AuditOrigin;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
};

/**
 * The writer of one database. The statements differ by store, each measured by bench/audit.ts:
 *
 * - PostgreSQL: one entry is one statement that sets `synchronous_commit = off`
 *   for itself (the row is in the database, seen by every reader, before the caller goes on;
 *   PostgreSQL's WAL writer flushes it within a few hundred milliseconds, so only a crash of
 *   PostgreSQL itself in that window could lose it); several are one multi-row statement with
 *   `set local synchronous_commit = off` in the same implicit transaction. Up to three inserts fly
 *   at once on the shared pool.
 * - Embedded PGlite: one simple-protocol statement with the values as escaped literals. PGlite
 *   answers the extended protocol (parse, bind, describe, execute, sync) several times slower than
 *   one simple query, and its single connection serialises everything, so one insert flies at a
 *   time. The commit keeps synchronous commit: single-user PGlite has no WAL writer that would
 *   write an unsynced commit's WAL later, and its fsync is a no-op, so the synchronous commit
 *   costs one write to the data folder and is what keeps the row through a crash of the process.
 */
export function createAuditWriter(database: Pick<DatabaseHandle, 'db' | 'kind'>): AuditWriter {
  const { db, kind } = database;
  const flights = kind === 'postgres' ? 3 : 1;
  const queue: Pending[] = [];
  let flying = 0;

  function insert(batch: readonly Pending[]): Promise<unknown> {
    if (kind === 'postgres' && batch.length === 1) {
      const [{ entry, origin }] = batch as [Pending];
      return sql`insert into audit_events (action, outcome, actor_id,
          actor_email, resource_type, resource_id, status_code, ip, user_agent, request_id, details)
        select ${clean(entry.action)}, ${entry.outcome}, ${clean(entry.actorId ?? null)}::uuid,
          ${clean(entry.actorEmail ?? null)}, ${clean(entry.resourceType ?? null)},
          ${clean(entry.resourceId ?? null)}, ${entry.statusCode ?? null}::integer,
          ${clean(origin.ip)}, ${clean(origin.userAgent)}, ${clean(origin.requestId)},
          ${JSON.stringify(entry.details ?? {})}::jsonb
        from (select set_config('synchronous_commit', 'off', true)) as unsynced`.execute(db);
    }
    const rows = batch.map((p) => `(${literals(p.entry, p.origin).join(', ')})`).join(',\n');
    const unsynced = kind === 'postgres' ? 'set local synchronous_commit = off;\n' : '';
    // Simple protocol (no parameters): the values are literals, escaped above.
    return sql.raw(`${unsynced}${COLUMNS}\nvalues ${rows}`).execute(db);
  }

  async function fly(): Promise<void> {
    flying += 1;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          await insert(batch);
          for (const p of batch) {
            p.resolve();
          }
        } catch (error) {
          if (batch.length === 1) {
            batch[0]?.reject(error);
            continue;
          }
          // Each entry on its own: only the one the database refuses fails.
          for (const p of batch) {
            await insert([p]).then(p.resolve, p.reject);
          }
        }
      }
    } finally {
      flying -= 1;
    }
  }

  return {
    // Off (docs/decisions.md, "audit"): at load average 7 the folded read measured +31% and +56%
    // against +39% without the fold, and the outbox feed of a test beside it came up empty.
    folds: false,
    append(entry, origin) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ entry, origin, resolve, reject });
        if (flying < flights) {
          void fly();
        }
      });
    },
    foldedInsert(entry, origin, found, otherwise) {
      const values = literals(entry, origin);
      const either = (index: number, other: string) =>
        `case when ${found} then ${values[index]} else ${other} end`;
      values[1] = either(1, sqlLiteral(otherwise.outcome));
      values[6] = either(6, statusLiteral(otherwise.statusCode));
      const unsynced =
        kind === 'postgres'
          ? " from (select set_config('synchronous_commit', 'off', true)) as unsynced"
          : '';
      const insert = `${COLUMNS}\n  select ${values.join(', ')}${unsynced}`;
      return `${FOLD_START}with audit_entry as (${insert})${FOLD_END} `;
    },
  };
}
