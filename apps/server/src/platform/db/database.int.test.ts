import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshPostgresDatabase } from '../../test/processes.ts';
import { openDatabase, PREPARED, type DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';
// The database's own test drives the statements of the job lifecycle it serves (tests only, which
// the platform zone of eslint.config.js leaves out: platform code imports no module).
import { createJobsRepository } from '../../modules/jobs/repository.ts';
import { recordJobEvent } from '../../modules/jobs/events.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('statements of the hot path are prepared once per connection', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let database: DatabaseHandle;
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl ?? '', 'prepared');
    database = await openDatabase({
      databaseUrl: fresh.url,
      pgliteDataDir: 'memory://',
      webhookDeliveries: false,
    });
  });
  afterAll(async () => {
    await database.close();
    await fresh.drop();
  });

  for (const lane of ['db', 'dispatchDb'] as const) {
    it(`${lane}: a PREPARED statement is kept by name with its parameters; others are not`, async () => {
      const names = await database[lane].connection().execute(async (conn) => {
        for (const n of [1, 2, 3]) {
          const row = await sql<{
            doubled: number;
          }>`${sql.raw(PREPARED)}select ${n}::int * 2 as doubled`
            .execute(conn)
            .then((r) => r.rows[0]);
          expect(row).toEqual({ doubled: n * 2 });
        }
        await sql`select 1 as plain`.execute(conn);
        const rows = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(conn);
        return rows.rows;
      });
      expect(names).toHaveLength(1);
      expect(names[0]?.name).toMatch(/^ld_[0-9a-f]{20}$/);
      expect(names[0]?.statement.startsWith(PREPARED)).toBe(true);
    });
  }
});

describe.skipIf(!adminUrl)('each node records webhook deliveries by its own configuration', () => {
  it('on one database, the outbox writes of a node with a webhook get a delivery; those of a node without one do not', async () => {
    const fresh = await freshPostgresDatabase(adminUrl ?? '', 'deliveries');
    const open = (webhookDeliveries: boolean) =>
      openDatabase({ databaseUrl: fresh.url, pgliteDataDir: 'memory://', webhookDeliveries });
    const withWebhook = await open(true);
    const without = await open(false);
    try {
      await migrateToLatest(withWebhook);
      const job = await createJobsRepository(withWebhook.db).enqueue({
        queue: 'federated',
        type: 'message.annotation.job',
        tenant: 'acme',
        payload: {},
      });
      const kept = await withWebhook.db
        .transaction()
        .execute((trx) => recordJobEvent(trx, 'job.created', job));
      // Started later without a webhook, the second node changes nothing for the first.
      const dropped = await without.db
        .transaction()
        .execute((trx) => recordJobEvent(trx, 'job.cancelled', job));
      const again = await withWebhook.db
        .transaction()
        .execute((trx) => recordJobEvent(trx, 'job.requeued', job));
      const deliveries = await withWebhook.db
        .selectFrom('webhook_deliveries')
        .select('event_id')
        .execute();
      expect(deliveries.map((d) => d.event_id).sort()).toEqual([kept.id, again.id].sort());
      // Both events are in the outbox (the pull feed) all the same.
      const events = await without.db.selectFrom('outbox_events').select('id').execute();
      expect(events.map((e) => e.id).sort()).toEqual([kept.id, dropped.id, again.id].sort());
    } finally {
      await withWebhook.close();
      await without.close();
      await fresh.drop();
    }
  });
});
