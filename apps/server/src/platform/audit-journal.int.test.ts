import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { tokenForRoles } from '../test/tokens.ts';
import { openAuditJournal, type AuditJournal } from './audit-journal.ts';

const CHILD = path.resolve(import.meta.dirname, '../test/audit-journal-child.ts');

/**
 * The node's audit journal (platform/audit-journal.ts): the per-route patient-data entry is a line
 * in a file before the answer is sent, and reaches `audit_events` when the journal is flushed. The
 * story: a node killed with SIGKILL after writing its journal loses nothing (the next start
 * replays it); a replay after a crash between the insert and the segment's deletion inserts
 * nothing twice; a torn last line (a crash mid-write) is dropped and the rest kept; and a journal
 * that cannot take an entry (its folder gone, or full because the database is not taking entries)
 * turns the answer into a 503 rather than answering without an entry.
 */
describe('audit journal: the entry is durable before the answer, the table follows', () => {
  let t: TestApp;
  const folders: string[] = [];
  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-journal-test-'));
    folders.push(dir);
    return dir;
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { AUDIT_JOURNAL_MAX_BYTES: '65536' } });
  });
  afterAll(async () => {
    await t.close();
    for (const dir of folders) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const open = (dir: string) =>
    openAuditJournal({ dir, database: t.database, flushMs: 3_600_000, maxBytes: 1 << 30 });
  const rowsWith = async (prefix: string) =>
    (
      await sql<{ request_id: string }>`
        select request_id from audit_events where request_id like ${`${prefix}-%`}
        order by request_id`.execute(t.database.db)
    ).rows.map((row) => row.request_id);
  const append = (journal: AuditJournal, requestId: string) =>
    journal.append(
      {
        action: 'patient-data.read',
        outcome: 'success',
        resourceType: 'route',
        resourceId: 'GET /api/v1/conversations/:id',
        statusCode: 200,
        details: { params: { id: requestId } },
      },
      { ip: '127.0.0.1', userAgent: 'test', requestId },
    );
  const segments = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

  it('keeps the entries of a node killed with SIGKILL before its flush; the next start replays them', async () => {
    const dir = folder();
    const prefix = `killed-${randomUUID()}`;
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, '200', prefix], {
      env: {
        PATH: process.env.PATH ?? '',
        ...(t.databaseUrl ? { CHILD_DATABASE_URL: t.databaseUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const appended = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('appended')) {
          resolve();
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`the child exited (${code}):\n${output}`)));
    });
    await appended;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(await rowsWith(prefix)).toEqual([]);

    const restarted = await open(dir);
    const rows = await rowsWith(prefix);
    expect(rows).toHaveLength(200);
    expect(new Set(rows).size).toBe(200);
    expect(segments(dir)).toEqual([]);
    await restarted.close();
  });

  it('inserts nothing twice when a replay finds a segment whose entries are in the table', async () => {
    const dir = folder();
    const prefix = `replayed-${randomUUID()}`;
    const journal = await open(dir);
    for (let i = 0; i < 3; i++) {
      append(journal, `${prefix}-${i}`);
    }
    const [segment] = segments(dir);
    const copy = fs.readFileSync(path.join(dir, segment as string));
    await journal.flush();
    expect(await rowsWith(prefix)).toHaveLength(3);
    await journal.close();
    // A crash after the insert's commit and before the segment's deletion leaves it on disk.
    fs.writeFileSync(path.join(dir, segment as string), copy);

    const again = await open(dir);
    expect(await rowsWith(prefix)).toHaveLength(3);
    expect(segments(dir)).toEqual([]);
    append(again, `${prefix}-3`);
    await again.flush();
    expect(await rowsWith(prefix)).toHaveLength(4);
    await again.close();
  });

  it('drops a torn last line (a crash mid-write) and keeps the lines before it', async () => {
    const dir = folder();
    const prefix = `torn-${randomUUID()}`;
    const journal = await open(dir);
    append(journal, `${prefix}-0`);
    append(journal, `${prefix}-1`);
    const [segment] = segments(dir);
    await journal.close();
    // close() flushed: put the segment back as a crash would have left it, mid-way through a
    // third line.
    const file = path.join(dir, segment as string);
    expect(fs.existsSync(file)).toBe(false);
    const line = (i: number) =>
      JSON.stringify({
        at: new Date().toISOString(),
        entry: { action: 'patient-data.read', outcome: 'success', statusCode: 200 },
        origin: { ip: null, userAgent: null, requestId: `${prefix}-${i}` },
      });
    fs.writeFileSync(
      path.join(dir, 'segment-000000000099.jsonl'),
      `${line(2)}\n${line(3)}\n${line(4).slice(0, 40)}`,
    );

    const replayed = await open(dir);
    expect(await rowsWith(prefix)).toEqual([0, 1, 2, 3].map((i) => `${prefix}-${i}`));
    expect(segments(dir)).toEqual([]);
    // The next entries go to a segment after it.
    append(replayed, `${prefix}-5`);
    await replayed.flush();
    expect(await rowsWith(prefix)).toHaveLength(5);
    await replayed.close();
  });

  it('refuses to open a journal in a folder it cannot write, saying which setting to fix', async () => {
    const file = path.join(folder(), 'not-a-folder');
    fs.writeFileSync(file, '');
    await expect(open(file)).rejects.toThrow(
      /AUDIT_JOURNAL_DIR: the audit journal folder .* is not writable/,
    );
  });

  it('refuses a folder another live process holds, and takes over the lock of one that is gone', async () => {
    const dir = folder();
    const lock = path.join(dir, 'journal.lock');
    fs.writeFileSync(lock, `${os.hostname()} ${process.ppid}\n`);
    await expect(open(dir)).rejects.toThrow(
      /AUDIT_JOURNAL_DIR: .* is in use by process \d+ on host .*Give each node a folder of its own/,
    );
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    fs.writeFileSync(lock, `${os.hostname()} ${gone.pid}\n`);
    const journal = await open(dir);
    expect(fs.readFileSync(lock, 'utf8')).toBe(`${os.hostname()} ${process.pid}\n`);
    await journal.close();
    expect(fs.existsSync(lock)).toBe(false);
  });

  describe('through the app', () => {
    let key: string;
    beforeAll(async () => {
      const admin = await tokenForRoles(t, 'journal-admin@example.test', ['admin']);
      const created = await t.app.inject({
        method: 'POST',
        url: '/internal/integration/api-keys',
        headers: { authorization: `Bearer ${admin.token}` },
        payload: { name: 'journal-test' },
      });
      key = created.json<{ key: string }>().key;
    });
    const read = (requestId: string, id = 'not-there') =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/conversations/${id}`,
        headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
      });

    it('answers 503, and not the data, when the journal folder is gone', async () => {
      const dir = t.app.auditJournal.dir;
      const prefix = `gone-${randomUUID()}`;
      expect((await read(`${prefix}-0`)).statusCode).toBe(404);
      // After a flush no segment is open: the next entry opens one in the folder.
      await t.app.auditJournal.flush();
      fs.renameSync(dir, `${dir}-moved`);
      fs.writeFileSync(dir, '');
      try {
        const refused = await read(`${prefix}-1`);
        expect(refused.statusCode).toBe(503);
        expect(refused.json()).toMatchObject({
          error: 'Service Unavailable',
          message: expect.stringMatching(/audit journal .* cannot be written .*AUDIT_JOURNAL_DIR/),
        });
      } finally {
        fs.rmSync(dir);
        fs.renameSync(`${dir}-moved`, dir);
      }
      expect((await read(`${prefix}-2`)).statusCode).toBe(404);
      await t.app.auditJournal.flush();
      expect(await rowsWith(prefix)).toEqual([`${prefix}-0`, `${prefix}-2`]);
    });

    it('answers 503 once the journal is full because the database takes no entries, and recovers', async () => {
      const prefix = `full-${randomUUID()}`;
      await t.app.auditJournal.flush();
      // Every flush fails (its mark cannot move): the entries stay in the journal.
      await sql`alter table audit_journal_marks rename to audit_journal_marks_away`.execute(
        t.database.db,
      );
      const statuses: number[] = [];
      try {
        const long = 'x'.repeat(100);
        for (let i = 0; i < 400 && !statuses.includes(503); i++) {
          const answer = await read(`${prefix}-${String(i).padStart(3, '0')}`, long);
          statuses.push(answer.statusCode);
          if (answer.statusCode === 503) {
            expect(answer.json<{ message: string }>().message).toMatch(
              /audit journal is full .*AUDIT_JOURNAL_MAX_BYTES=65536/,
            );
          }
        }
        // A route that changes patient data is refused before its work: nothing is created.
        const put = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/conversations/${prefix}-conversation`,
          headers: { authorization: `Bearer ${key}` },
          payload: {
            tenant: 'acme-clinic',
            consumer: { id: `${prefix}-patient`, name: { given: 'Ada', family: 'Full' } },
          },
        });
        expect(put.statusCode).toBe(503);
        expect(put.json<{ message: string }>().message).toMatch(/audit journal is full/);
        await expect(t.app.auditJournal.flush()).rejects.toThrow();
      } finally {
        await sql`alter table audit_journal_marks_away rename to audit_journal_marks`.execute(
          t.database.db,
        );
      }
      expect(statuses.at(-1)).toBe(503);
      expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);
      await t.app.auditJournal.flush();
      // Every answered request has its entry; the refused one has none.
      expect(await rowsWith(prefix)).toHaveLength(statuses.length - 1);
      expect((await read(`${prefix}-after`)).statusCode).toBe(404);
      expect((await read(`${prefix}-after-put`, `${prefix}-conversation`)).statusCode).toBe(404);
    });
  });
});
