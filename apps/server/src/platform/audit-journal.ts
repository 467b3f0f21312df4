import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { AuditEntry } from './audit.ts';
import { COLUMNS, literals, type AuditOrigin } from './audit-writer.ts';
import type { DatabaseHandle } from './db/database.ts';

/**
 * The audit journal of one node (issue 18 #7): each per-route `patient-data.*` entry is appended
 * to a file of the node's journal folder, one JSON line written by a synchronous `write` before
 * the answer is sent, so that it survives a crash of the process (what the database gave before:
 * PGlite runs with fsync off, PostgreSQL's entry was committed with synchronous_commit off). A
 * flusher moves the entries into `audit_events` every `flushMs` (or sooner past FLUSH_ENTRIES),
 * one multi-row insert per segment, then deletes the segment. Replay is idempotent by segment:
 * the insert and the journal's mark (`audit_journal_marks`: the last segment flushed, migration
 * 031) commit together, and a segment at or below the mark is deleted without inserting.
 *
 * Layout of the folder (one node per folder): `journal-id` (this journal's id, the mark's key),
 * `journal.lock` (the host and process holding it) and `segment-<sequence>.jsonl`. The segment being written is never read; a flush closes it and opens
 * the next. A crash mid-line leaves a torn last line, which the replay drops (its request was not
 * answered).
 */
export interface AuditJournal {
  /**
   * Appends an entry, durable (against a crash of the process) when it returns. Throws an
   * AuditJournalUnavailable when it cannot: the request must then not be answered as if audited.
   */
  append(entry: AuditEntry, origin: AuditOrigin): void;
  /**
   * Throws an AuditJournalUnavailable when an entry could not be appended now (the server
   * stopping, the journal full, its segment file not creatable): a route that changes patient
   * data checks it before its work, so that a refused request changes nothing.
   */
  check(): void;
  /** Moves every entry appended so far into `audit_events`; readers of the trail call it first. */
  flush(): Promise<void>;
  /**
   * Flushes what is left (a failed flush is logged: its segments wait for the next start), stops
   * the flusher and closes the file (the folder is kept).
   */
  close(): Promise<void>;
  readonly dir: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The node's audit journal: readers of the audit trail flush it first. */
    auditJournal: AuditJournal;
  }
}

/** The journal could not take an entry: the folder is full, unwritable, or past its limit. */
export class AuditJournalUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuditJournalUnavailable';
  }
}

/** A flush starts early once the open segment holds this many entries. */
const FLUSH_ENTRIES = 500;
/** Room `check` asks for: more than one entry takes (its parameters are cut at 200 characters). */
const ENTRY_RESERVE = 4096;
/** Rows per insert statement. */
const ROWS_PER_STATEMENT = 500;

const SEGMENT = /^segment-(\d{12})\.jsonl$/;
const segmentName = (sequence: number) => `segment-${String(sequence).padStart(12, '0')}.jsonl`;

/** One line of the journal: the entry, its origin, and when it happened. */
interface Line {
  readonly at: string;
  readonly entry: AuditEntry;
  readonly origin: AuditOrigin;
}

/** The lines of a segment's text: a torn last line (no newline after it) is left out. */
function linesOf(text: string, onBad: (problem: string) => void): { lines: Line[]; torn: boolean } {
  const parts = text.split('\n');
  const tail = parts.pop() ?? '';
  const lines: Line[] = [];
  for (const [index, part] of parts.entries()) {
    if (part === '') {
      continue;
    }
    try {
      lines.push(JSON.parse(part) as Line);
    } catch {
      onBad(`line ${index + 1} is not JSON`);
    }
  }
  return { lines, torn: tail !== '' };
}

const rowOf = (line: Line) =>
  `(${pg.escapeLiteral(line.at)}::timestamptz, ${literals(line.entry, line.origin).join(', ')})`;

const INSERT = COLUMNS.replace('(action,', '(occurred_at, action,');

export interface JournalOptions {
  readonly dir: string;
  readonly database: Pick<DatabaseHandle, 'auditPool' | 'kind'>;
  /** How often the flusher moves entries into the table (ms). */
  readonly flushMs: number;
  /** The most the folder may hold unflushed (bytes) before appends are refused. */
  readonly maxBytes: number;
  readonly log?: {
    error(object: unknown, message: string): void;
    warn(o: unknown, m: string): void;
  };
}

/** Where the journal cannot be kept: a clear message for the operator. */
function folderProblem(dir: string, error: unknown): Error {
  const code = (error as { code?: string } | null)?.code ?? String(error);
  return new Error(
    `AUDIT_JOURNAL_DIR: the audit journal folder ${dir} is not writable (${code}). Set ` +
      'AUDIT_JOURNAL_DIR to a folder on persistent storage this node can write (one folder per node).',
    { cause: error },
  );
}

/** Whether a process of this host is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the folder's lock (`journal.lock`: host and pid): two nodes in one folder would flush and
 * delete each other's segments. A lock left by a process of this host that is gone (a crash) is
 * taken over; a live one, or one of another host, stops the start with what to do.
 */
function lockFolder(dir: string): () => void {
  const file = path.join(dir, 'journal.lock');
  const mine = `${os.hostname()} ${process.pid}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx', flush: true });
      return () => {
        if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === mine) {
          fs.rmSync(file, { force: true });
        }
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') {
        throw error;
      }
    }
    const [host, pidText] = fs.readFileSync(file, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    const stale = host === os.hostname() && (pid === process.pid || !alive(pid));
    if (!stale) {
      throw new Error(
        `AUDIT_JOURNAL_DIR: the audit journal folder ${dir} is in use by process ${pidText} on ` +
          `host ${host}. Give each node a folder of its own; if that node is gone for good, ` +
          `delete ${file} and start again.`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new Error(`AUDIT_JOURNAL_DIR: could not take the lock ${file}; start again.`);
}

/**
 * Opens the journal in `dir` (created when missing), replays what it still holds into
 * `audit_events`, then starts the flusher. Call before serving.
 */
export async function openAuditJournal(options: JournalOptions): Promise<AuditJournal> {
  const { dir, database, flushMs, maxBytes, log } = options;
  const pool = database.auditPool;
  let journalId: string;
  let unlock: () => void;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    unlock = lockFolder(dir);
    const idFile = path.join(dir, 'journal-id');
    if (fs.existsSync(idFile)) {
      journalId = fs.readFileSync(idFile, 'utf8').trim();
    } else {
      journalId = randomUUID();
      fs.writeFileSync(idFile, `${journalId}\n`, { flush: true });
    }
  } catch (error) {
    throw error instanceof Error && error.message.startsWith('AUDIT_JOURNAL_DIR:')
      ? error
      : folderProblem(dir, error);
  }
  if (!/^[0-9a-f-]{36}$/.test(journalId)) {
    throw new Error(`The audit journal's id in ${path.join(dir, 'journal-id')} is not a UUID.`);
  }

  async function query(text: string): Promise<pg.QueryResult | pg.QueryResult[]> {
    const client = await pool.connect();
    try {
      return await client.query(text);
    } finally {
      client.release();
    }
  }
  const marked = await query(
    `select segment from audit_journal_marks where journal_id = '${journalId}'`,
  );
  const markRows = (Array.isArray(marked) ? marked.at(-1) : marked)?.rows ?? [];
  /** The last segment whose entries are in the table. */
  let mark = Number((markRows[0] as { segment?: string } | undefined)?.segment ?? 0);

  const segmentsOnDisk = () =>
    fs
      .readdirSync(dir)
      .map((name) => SEGMENT.exec(name)?.[1])
      .filter((s): s is string => s !== undefined)
      .map(Number)
      .sort((a, b) => a - b);

  /** Closed segments waiting for the flusher, oldest first. */
  const closed: number[] = segmentsOnDisk();
  let next = Math.max(mark, closed.at(-1) ?? 0) + 1;
  /** The open segment: its sequence, descriptor and entries. */
  let open: { sequence: number; fd: number; entries: number } | undefined;
  /** Bytes of every segment not yet flushed. */
  let pendingBytes = closed.reduce(
    (sum, s) => sum + fs.statSync(path.join(dir, segmentName(s))).size,
    0,
  );

  function closeOpen(): void {
    if (open) {
      const { fd, sequence } = open;
      open = undefined;
      try {
        fs.closeSync(fd);
      } catch (error) {
        log?.error({ err: error }, 'audit journal: closing a segment failed');
      }
      closed.push(sequence);
    }
  }

  /** Inserts one segment's entries and moves the mark, in one implicit transaction. */
  async function insertSegment(sequence: number, lines: Line[]): Promise<void> {
    const statements: string[] = [];
    for (let i = 0; i < lines.length; i += ROWS_PER_STATEMENT) {
      const rows = lines.slice(i, i + ROWS_PER_STATEMENT).map(rowOf);
      statements.push(`${INSERT}\nvalues ${rows.join(',\n')}`);
    }
    const moveMark = `insert into audit_journal_marks (journal_id, segment) values ('${journalId}', ${sequence})
      on conflict (journal_id) do update set segment = excluded.segment, flushed_at = now()`;
    try {
      await query([...statements, moveMark].join(';\n'));
    } catch (error) {
      // One entry the database refuses must not hold the others back: each in a savepoint.
      log?.error({ err: error }, 'audit journal: a segment was refused; writing it entry by entry');
      const client = await pool.connect();
      try {
        await client.query('begin');
        for (const line of lines) {
          await client.query('savepoint entry');
          try {
            await client.query(`${INSERT}\nvalues ${rowOf(line)}`);
            await client.query('release savepoint entry');
          } catch (refused) {
            await client.query('rollback to savepoint entry');
            log?.error({ err: refused, entry: line }, 'audit write failed');
          }
        }
        await client.query(moveMark);
        await client.query('commit');
      } catch (failed) {
        await client.query('rollback').catch(() => undefined);
        throw failed;
      } finally {
        client.release();
      }
    }
  }

  /** Moves the closed segments into the table, oldest first; a failure leaves them for later. */
  async function drain(): Promise<void> {
    while (closed.length > 0) {
      const sequence = closed[0] as number;
      const file = path.join(dir, segmentName(sequence));
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (sequence > mark) {
        const { lines, torn } = linesOf(text, (problem) =>
          log?.error({ segment: file }, `audit journal: ${problem}; the line is skipped`),
        );
        if (torn) {
          log?.warn(
            { segment: file },
            'audit journal: a torn last line (a crash mid-write) dropped',
          );
        }
        if (lines.length > 0) {
          await insertSegment(sequence, lines);
          mark = sequence;
        }
      }
      fs.rmSync(file, { force: true });
      pendingBytes = Math.max(0, pendingBytes - Buffer.byteLength(text));
      closed.shift();
    }
  }

  let flushing: Promise<void> | undefined;
  let again = false;
  function flush(): Promise<void> {
    if (flushing) {
      // One more pass after the running one, for what was appended since it started.
      again = true;
      return flushing;
    }
    flushing = (async () => {
      try {
        do {
          again = false;
          if (open && open.entries > 0) {
            closeOpen();
          }
          await drain();
        } while (again);
      } finally {
        flushing = undefined;
      }
    })();
    return flushing;
  }

  const background = () =>
    void flush().catch((error: unknown) =>
      log?.error({ err: error }, 'audit journal: flush failed; retried at the next interval'),
    );

  const unwritable = (error: unknown) => {
    const code = (error as { code?: string } | null)?.code ?? String(error);
    return new AuditJournalUnavailable(
      `The audit journal in ${dir} cannot be written (${code}): free space on its disk or ` +
        'make the folder writable (AUDIT_JOURNAL_DIR).',
      { cause: error },
    );
  };

  /** The open segment, opened when needed, if `bytes` more may be appended now; else throws. */
  function writable(bytes: number): { fd: number; entries: number } {
    if (closing) {
      throw new AuditJournalUnavailable('The audit journal is closed: the server is stopping.');
    }
    if (pendingBytes + bytes > maxBytes) {
      background();
      throw new AuditJournalUnavailable(
        `The audit journal is full (${pendingBytes} bytes not yet in the database, limit ` +
          `AUDIT_JOURNAL_MAX_BYTES=${maxBytes}): the database is not taking entries.`,
      );
    }
    if (!open) {
      const sequence = next;
      try {
        open = {
          sequence,
          fd: fs.openSync(path.join(dir, segmentName(sequence)), 'a'),
          entries: 0,
        };
      } catch (error) {
        throw unwritable(error);
      }
      next += 1;
    }
    return open;
  }

  // Replay what the journal still holds before serving.
  await drain();
  const timer = setInterval(background, flushMs);
  timer.unref();
  let closing = false;

  return {
    dir,
    append(entry, origin) {
      const line = `${JSON.stringify({ at: new Date().toISOString(), entry, origin })}\n`;
      const bytes = Buffer.byteLength(line);
      const segment = writable(bytes);
      try {
        const written = fs.writeSync(segment.fd, line);
        if (written !== bytes) {
          throw Object.assign(new Error(`wrote ${written} of ${bytes} bytes`), { code: 'ESHORT' });
        }
      } catch (error) {
        // A torn line ends its segment: the next entry goes to a new one.
        closeOpen();
        throw unwritable(error);
      }
      pendingBytes += bytes;
      segment.entries += 1;
      if (segment.entries >= FLUSH_ENTRIES) {
        setImmediate(background);
      }
    },
    check() {
      writable(ENTRY_RESERVE);
    },
    flush,
    async close() {
      closing = true;
      clearInterval(timer);
      try {
        await flush();
      } catch (error) {
        // Nothing is lost: the segments stay in the folder for the next start's replay.
        log?.error({ err: error }, 'audit journal: the last flush failed; replayed at next start');
      } finally {
        closeOpen();
        unlock();
      }
    },
  };
}
