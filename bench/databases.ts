/**
 * The benchmarks' databases (bench/cluster, dispatch, typeahead, analytics): each system of a run
 * gets a database of its own on the PostgreSQL that BENCH_DATABASE_URL names (its admin URL),
 * created fresh and dropped at the end.
 */
import pg from 'pg';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The URL of the database `name` on ADMIN_URL's server. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.href;
}

/** Runs `work` with a client of ADMIN_URL, closed afterwards. */
async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Creates the database `name` (dropped first if it is there, unless `reuse` and it is there);
 * answers its URL.
 */
export async function freshDatabase(name: string, options: { reuse?: boolean } = {}) {
  await withAdmin(async (admin) => {
    if (options.reuse) {
      const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rows.length > 0) {
        return;
      }
    }
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  });
  return databaseUrl(name);
}

/** Drops the database `name` once its connections have closed (or after 5 s, by force). */
export async function dropDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    // Let the pools that are closing hang up first: a forced drop under an idle client of a pool
    // hands that pool an error nobody is left to catch (graphile-worker's, after its runner stops).
    for (let waited = 0; waited < 5000; waited += 50) {
      const { rows } = await admin.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      if ((rows[0]?.n ?? 0) === 0) {
        break;
      }
      await sleep(50);
    }
    await admin.query(`drop database if exists ${name} with (force)`);
  });
}
