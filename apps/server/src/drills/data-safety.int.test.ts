import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from '../platform/db/database.ts';
import { migrateToLatest, migrateUpTo } from '../platform/db/migrate.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { freshPostgresDatabase } from '../test/processes.ts';
import { annotationData, openSocket, type TestSocket } from '../test/socket-client.ts';
import { apiKeyFor, tokenForRoles } from '../test/tokens.ts';

/**
 * Drill (issue 18 point 9): data safety. The desk is busy — jobs queued, one held by a technician,
 * one answered; conversations handed over and held by a reviewer, patients still writing — when a
 * backup is taken, the way docs/backup.md says for the store in use: PostgreSQL with `pg_dump`
 * while the nodes run; the embedded database by stopping the server and copying its folder.
 * Then the desk carries on. What must hold: the backup, restored into a new database, holds every
 * job, conversation, message and audit row that existed when it was taken (and none of the work
 * done after it), and the server's migrations run on it.
 *
 * Second story: a database populated by an older release (migrated only up to 007-exceptions) is
 * migrated forward to the latest migration, and every row it held is still there, unchanged.
 */

const run = promisify(execFile);
const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/** What the restore must find: the ids (and states) of every row that matters, sorted. */
async function inventory(db: Database) {
  const jobs = await db.selectFrom('jobs').select(['id', 'state']).orderBy('id').execute();
  const conversations = await db
    .selectFrom('conversations')
    .select(['id', 'holder'])
    .orderBy('id')
    .execute();
  const messages = await db
    .selectFrom('conversation_messages')
    .select(['conversation_id', 'id', 'content'])
    .orderBy('conversation_id')
    .orderBy('id')
    .execute();
  const audit = await db
    .selectFrom('audit_events')
    .select(['id', 'action', 'outcome'])
    .orderBy('id')
    .execute();
  const outbox = await db
    .selectFrom('outbox_events')
    .select(['id', 'type'])
    .orderBy('id')
    .execute();
  return { jobs, conversations, messages, audit, outbox };
}

type Inventory = Awaited<ReturnType<typeof inventory>>;

/** Every row of `before` is in `after`, the same. */
function expectAllFound(before: Inventory, after: Inventory) {
  for (const key of Object.keys(before) as (keyof Inventory)[]) {
    const found = new Set(after[key].map((row) => JSON.stringify(row)));
    const missing = before[key].filter((row) => !found.has(JSON.stringify(row)));
    expect(missing, `${key} missing from the restore`).toEqual([]);
  }
}

const sizes = (i: Inventory) =>
  `${i.jobs.length} jobs, ${i.conversations.length} conversations, ${i.messages.length} messages, ${i.audit.length} audit rows, ${i.outbox.length} outbox events`;

describe('drill: a backup taken mid-work, restored', () => {
  let t: TestApp | undefined;
  let folder: string | undefined;
  const open: TestSocket[] = [];
  afterAll(async () => {
    for (const socket of open) {
      socket.ws.terminate();
    }
    await t?.close();
    if (folder) {
      await rm(folder, { recursive: true, force: true });
    }
  });

  // Bounded at 120 s: on PGlite two opens (the server's, the restore's) took 10–15 s each on a
  // machine at load 25; on PostgreSQL the whole story took 12–30 s.
  it('restores every job, conversation, message and audit row that existed when it was taken', async () => {
    const started = performance.now();
    folder = await mkdtemp(path.join(tmpdir(), 'loopdesk-backup-'));
    const dataDir = path.join(folder, 'data', 'pg');
    t = await startTestApp({
      listen: true,
      env: { SOCKET_HEARTBEAT_SECONDS: '1', LEASE_SWEEP_SECONDS: '0.5' },
      ...(testDatabaseUrl ? {} : { pgliteDataDir: dataDir }),
    });
    const app = t;
    const key = await apiKeyFor(app, 'backup-drill');
    let calls = 0;
    const api = async (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) => {
      const response = await app.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': `backup-${(calls += 1)}` },
        payload,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json<{ id?: string }>();
    };
    const job = (text: string) =>
      api('POST', '/api/v1/jobs', {
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme',
        data: { lastTurn: { content: text } },
      });
    const conversation = async (id: string) => {
      await api('PUT', `/api/v1/conversations/${id}`, {
        tenant: 'acme',
        consumer: { id: `patient-${id}`, name: { given: 'Maya', family: id } },
      });
      await api('POST', `/api/v1/conversations/${id}/messages`, {
        id: `${id}-m1`,
        direction: 'IN',
        content: 'My chest feels tight',
      });
    };

    // Work in progress: a technician answers one job and holds the next; three more wait.
    const { token } = await tokenForRoles(app, 'ann@backup.test', ['annotator']);
    const ann = await openSocket(app.baseUrl, '/ws/federated', token);
    open.push(ann);
    await ann.next('technician.session.paused');
    ann.send('technician.session.activate');
    await ann.next('technician.session.waiting');
    await job('first');
    const first = await ann.next('message.annotation.job');
    ann.send('message.annotation', annotationData(String(first.data.jobId)));
    await ann.next('technician.session.waiting');
    for (const text of ['second', 'third', 'fourth', 'fifth']) {
      await job(text);
    }
    await ann.next('message.annotation.job');
    // A reviewer holds two handed-over conversations; a third is with the assistant still.
    const meera = await tokenForRoles(app, 'meera@backup.test', ['medical']);
    const desk = await openSocket(app.baseUrl, '/ws/exceptions', meera.token);
    open.push(desk);
    await desk.next('technician.session.paused');
    desk.send('technician.session.activate');
    await desk.next('technician.session.waiting');
    for (const id of ['c1', 'c2', 'c3']) {
      await conversation(id);
    }
    for (const id of ['c1', 'c2']) {
      await api('POST', `/api/v1/conversations/${id}/handover`, { reason: 'asked for a human' });
    }
    await desk.next('technician.session.conversation.added');
    await desk.next('technician.session.conversation.added');
    await api('POST', '/api/v1/conversations/c1/messages', {
      id: 'c1-m2',
      direction: 'IN',
      content: 'Are you there?',
    });

    // The backup, as docs/backup.md says.
    const before = await inventory(app.database.db);
    expect(before.jobs.map((j) => j.state).sort()).toEqual([
      'assigned',
      'completed',
      'queued',
      'queued',
      'queued',
    ]);
    expect(before.conversations.map((c) => c.holder)).toEqual([meera.userId, meera.userId, 'bot']);
    const backupStarted = performance.now();
    let restored: DatabaseHandle;
    let dropRestored = async () => {};
    if (testDatabaseUrl && app.databaseUrl) {
      // PostgreSQL: pg_dump while the server works (one consistent snapshot).
      const file = path.join(folder, 'loopdesk.dump');
      await run('pg_dump', ['--format=custom', `--file=${file}`, app.databaseUrl]);
      const backupMs = performance.now() - backupStarted;
      // The desk carries on after the backup.
      await job('after the backup');
      await conversation('c4');
      // Restore into a new database.
      const target = await freshPostgresDatabase(testDatabaseUrl, 'loopdesk_restore');
      dropRestored = () => target.drop();
      await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, file]);
      restored = await openDatabase({
        databaseUrl: target.url,
        pgliteDataDir: 'memory://',
        webhookDeliveries: false,
      });
      console.info(
        `[drill] backup (PostgreSQL, pg_dump while running): ${sizes(before)}; dump ${backupMs.toFixed(0)} ms`,
      );
    } else {
      // PGlite: stop the server (it finishes what it was doing), copy the folder, start again.
      await app.close();
      t = undefined;
      const copy = path.join(folder, 'backup', 'pg');
      await cp(dataDir, copy, { recursive: true });
      const backupMs = performance.now() - backupStarted;
      // Restore: the copied folder, opened where the server would open it.
      const target = path.join(folder, 'restored', 'pg');
      await cp(copy, target, { recursive: true });
      restored = await openDatabase({
        databaseUrl: undefined,
        pgliteDataDir: target,
        webhookDeliveries: false,
      });
      console.info(
        `[drill] backup (PGlite, folder copied while stopped): ${sizes(before)}; stop and copy ${backupMs.toFixed(0)} ms`,
      );
    }
    try {
      await migrateToLatest(restored);
      const after = await inventory(restored.db);
      // Everything the backup saw is there. On PGlite the server's stop had handed the held job
      // and conversations back to their queues first, so who holds what is compared on
      // PostgreSQL only.
      if (testDatabaseUrl) {
        expectAllFound(before, after);
      } else {
        const unheld = (i: Inventory): Inventory => ({
          ...i,
          jobs: i.jobs.map((j) => ({ ...j, state: 'queued' as const })),
          conversations: i.conversations.map((c) => ({ ...c, holder: '' })),
        });
        expectAllFound(unheld(before), unheld(after));
      }
      // …and nothing done after it.
      expect(after.jobs).toHaveLength(before.jobs.length);
      expect(after.conversations).toHaveLength(before.conversations.length);
      console.info(
        `[drill] restore: found ${sizes(after)} in ${((performance.now() - started) / 1000).toFixed(1)} s in all`,
      );
    } finally {
      await restored.close();
      await dropRestored();
    }
  }, 120_000);
});

describe('drill: migrations run forward on a populated database of an older release', () => {
  let handle: DatabaseHandle | undefined;
  let drop = async () => {};
  afterAll(async () => {
    await handle?.close();
    await drop();
  });

  /** Every row of every table, as JSON, keyed by table. */
  async function everything(db: Database): Promise<Map<string, Record<string, unknown>[]>> {
    const { rows: tables } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
        and table_name not like 'kysely_%'
      order by table_name`.execute(db);
    const all = new Map<string, Record<string, unknown>[]>();
    for (const { name } of tables) {
      const { rows } = await sql<{ row: Record<string, unknown> }>`
        select to_jsonb(t) as row from ${sql.table(name)} t`.execute(db);
      all.set(
        name,
        rows.map((r) => r.row).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      );
    }
    return all;
  }

  it('every row an older release stored is still there after migrating to the latest', async () => {
    const started = performance.now();
    if (testDatabaseUrl) {
      const fresh = await freshPostgresDatabase(testDatabaseUrl, 'loopdesk_migrate');
      drop = () => fresh.drop();
      handle = await openDatabase({
        databaseUrl: fresh.url,
        pgliteDataDir: 'memory://',
        webhookDeliveries: false,
      });
    } else {
      handle = await openDatabase({
        databaseUrl: undefined,
        pgliteDataDir: 'memory://',
        webhookDeliveries: false,
      });
    }
    const db = handle.db;
    // The database as the release with migrations up to 007-exceptions left it, in use.
    const older = await migrateUpTo(handle, '007-exceptions');
    expect(older).toContain('007-exceptions');
    await sql`
      insert into users (id, email, display_name, roles)
        values ('00000000-0000-4000-8000-000000000001', 'meera@old.test', 'Meera', '{medical}'),
               ('00000000-0000-4000-8000-000000000002', 'ann@old.test', 'Ann', '{annotator}');
      insert into jobs (id, queue, type, tenant, payload, state, attempts, assignee_id, lease_expires_at)
        values ('10000000-0000-4000-8000-000000000001', 'federated', 'message.annotation.job', 'acme',
                '{"lastTurn": {"content": "My knee hurts"}}', 'queued', 0, null, null),
               ('10000000-0000-4000-8000-000000000002', 'federated', 'message.annotation.job', 'acme',
                '{"lastTurn": {"content": "I feel dizzy"}}', 'assigned', 1,
                '00000000-0000-4000-8000-000000000002', now() + interval '10 minutes');
      insert into jobs (id, queue, type, tenant, payload, state, attempts, result, completed_at)
        values ('10000000-0000-4000-8000-000000000003', 'federated', 'message.annotation.job', 'acme',
                '{"lastTurn": {"content": "Rash on my arm"}}', 'completed', 1, '{"action": "answer"}', now());
      insert into outbox_events (type, job_id, data)
        values ('job.created', '10000000-0000-4000-8000-000000000001', '{}'),
               ('job.completed', '10000000-0000-4000-8000-000000000003', '{"job": {}}');
      insert into consumers (id, tenant, given_name, family_name)
        values ('patient-1', 'acme', 'Maya', 'Okafor');
      insert into conversations (id, tenant, consumer_id, holder, queue, queued_at, queue_seq, message_count)
        values ('conv-1', 'acme', 'patient-1', '00000000-0000-4000-8000-000000000001', 'exceptions',
                now(), nextval('conversations_queue_seq'), 2),
               ('conv-2', 'acme', 'patient-1', 'bot', null, null, null, 0);
      insert into conversation_messages (conversation_id, id, position, direction, content, author_kind, author_id, author_name, created_on)
        values ('conv-1', 'm1', 1, 'IN', 'Chest pain since this morning', 'patient', 'patient-1', 'Maya Okafor', now()),
               ('conv-1', 'm2', 2, 'OUT', 'A clinician will answer shortly', 'assistant', 'bot', 'Assistant', now());
      insert into audit_events (actor_id, actor_email, action, resource_type, resource_id, outcome)
        values ('00000000-0000-4000-8000-000000000001', 'meera@old.test', 'conversation.read',
                'conversation', 'conv-1', 'success'),
               (null, null, 'job.create', 'job', '10000000-0000-4000-8000-000000000001', 'success');
    `.execute(db);
    const before = await everything(db);

    // The new release starts: every later migration runs on the populated database.
    const applied = await migrateToLatest(handle);
    expect(applied.length).toBeGreaterThan(5);
    const after = await everything(db);
    let rows = 0;
    for (const [table, oldRows] of before) {
      const newRows = after.get(table);
      expect(newRows, `table ${table} is gone`).toBeDefined();
      // Each old row is there with every value it had (new columns may add fields).
      const kept = (newRows ?? []).map((row) =>
        JSON.stringify(Object.fromEntries(Object.keys(oldRows[0] ?? {}).map((k) => [k, row[k]]))),
      );
      for (const row of oldRows) {
        expect(kept, `a row of ${table} changed or was lost`).toContain(JSON.stringify(row));
      }
      expect(newRows).toHaveLength(oldRows.length);
      rows += oldRows.length;
    }
    expect(rows).toBeGreaterThanOrEqual(14);
    console.info(
      `[drill] migrations forward: ${rows} rows of ${before.size} tables at 007-exceptions, ${applied.length} migrations applied, every row intact (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }, 60_000);
});
