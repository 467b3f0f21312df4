import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshPostgresDatabase } from '../../test/processes.ts';
import { openDatabase, PREPARED, type DatabaseHandle } from './database.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('statements of the hot path are prepared once per connection', () => {
  let fresh: { url: string; drop(): Promise<void> };
  let database: DatabaseHandle;
  beforeAll(async () => {
    fresh = await freshPostgresDatabase(adminUrl ?? '', 'prepared');
    database = await openDatabase({ databaseUrl: fresh.url, pgliteDataDir: 'memory://' });
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
