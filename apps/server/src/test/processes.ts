import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';

const MAIN = path.join(import.meta.dirname, '..', 'main.ts');

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A fresh, empty PostgreSQL database next to the one TEST_DATABASE_URL names; dropped by `drop()`. */
export async function freshPostgresDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // Let connections that are closing finish first: forcing the drop under a client that has
      // not yet hung up hands that client an error nobody is left to catch.
      for (let waited = 0; waited < 5_000; waited += 50) {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if ((rows[0]?.n ?? 0) === 0) {
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<number | null>;
  output(): string;
}

/** Starts `apps/server/src/main.ts` as a real process and waits until /readyz answers 200. */
export async function startServerProcess(
  port: number,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      DEMO: '0',
      // No agreement samples (issue 16) unless a test asks: they are jobs of their own.
      AGREEMENT_SAMPLE_SHARE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Up to 90 s: on a loaded machine, starting under tsx alone took longer than 30 s.
  for (let i = 0; i < 360; i++) {
    const ready = await fetch(`${baseUrl}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ready) {
      return { child, baseUrl, exited, output: () => output };
    }
    if (child.exitCode !== null) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server on ${port} did not become ready:\n${output}`);
}

/** Two server processes on one PostgreSQL database and one Redis, as the cluster drills use. */
export interface TwoNodes {
  /** The SESSION_SECRET both nodes share: tokens signed with it are good on either. */
  readonly secret: string;
  /** The test's own connection to the nodes' database (migrated), to seed and to read. */
  readonly handle: DatabaseHandle;
  readonly nodeA: ServerProcess;
  readonly nodeB: ServerProcess;
  /** Stops the nodes still running (SIGTERM), closes the test's connection, drops the database. */
  close(): Promise<void>;
}

/**
 * Starts `node-a` and `node-b` (NODE_ID) on a fresh database next to `adminUrl` and on
 * `redisUrl`, with one random SESSION_SECRET and `env` on top; migrated before they start.
 */
export async function startTwoNodes(options: {
  adminUrl: string;
  redisUrl: string;
  /** Names the fresh database (`<prefix>_<random>`), to tell drills apart. */
  prefix: string;
  env?: Record<string, string>;
}): Promise<TwoNodes> {
  const secret = randomBytes(32).toString('hex');
  const database = await freshPostgresDatabase(options.adminUrl, options.prefix);
  const handle = await openDatabase({
    databaseUrl: database.url,
    pgliteDataDir: 'memory://',
    // The nodes deliver webhooks; the test's connection only seeds and reads.
    webhookDeliveries: false,
  });
  const nodes: ServerProcess[] = [];
  async function close(): Promise<void> {
    for (const node of nodes) {
      if (node.child.exitCode === null && node.child.signalCode === null) {
        node.child.kill('SIGTERM');
      }
    }
    await Promise.all(nodes.map((node) => node.exited));
    await handle.close();
    await database.drop();
  }
  try {
    await migrateToLatest(handle);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: options.redisUrl,
      SESSION_SECRET: secret,
      ...options.env,
    };
    const [portA, portB] = [await freePort(), await freePort()];
    const started = await Promise.allSettled([
      startServerProcess(portA, { ...env, NODE_ID: 'node-a' }),
      startServerProcess(portB, { ...env, NODE_ID: 'node-b' }),
    ]);
    for (const result of started) {
      if (result.status === 'fulfilled') {
        nodes.push(result.value);
      }
    }
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      throw failed.reason;
    }
  } catch (error) {
    await close();
    throw error;
  }
  const [nodeA, nodeB] = nodes as [ServerProcess, ServerProcess];
  return { secret, handle, nodeA, nodeB, close };
}
