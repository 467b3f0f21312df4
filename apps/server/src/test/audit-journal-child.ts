/**
 * A node that appends audit entries to its journal and is then killed (audit-journal.int.test.ts):
 * `node --import tsx audit-journal-child.ts <journal folder> <entries> <request id prefix>`, on
 * CHILD_DATABASE_URL (PostgreSQL) or an in-memory PGlite of its own. Its flusher never runs: it
 * prints `appended` once every entry is in the journal, then waits to be killed.
 */
import { openAuditJournal } from '../platform/audit-journal.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';

const [dir, count, prefix] = process.argv.slice(2);
if (!dir || !count || !prefix) {
  throw new Error('usage: audit-journal-child.ts <journal folder> <entries> <request id prefix>');
}
const database = await openDatabase({
  databaseUrl: process.env.CHILD_DATABASE_URL,
  pgliteDataDir: 'memory://',
  webhookDeliveries: false,
});
await migrateToLatest(database);
const journal = await openAuditJournal({
  dir,
  database,
  flushMs: 3_600_000,
  maxBytes: 1 << 30,
});
for (let i = 0; i < Number(count); i++) {
  journal.append(
    {
      action: 'patient-data.read',
      outcome: 'success',
      resourceType: 'route',
      resourceId: 'GET /api/v1/conversations/:id',
      statusCode: 200,
      details: { params: { id: `conv-${i}` } },
    },
    { ip: '127.0.0.1', userAgent: 'child', requestId: `${prefix}-${i}` },
  );
}
process.stdout.write('appended\n');
setInterval(() => undefined, 60_000);
