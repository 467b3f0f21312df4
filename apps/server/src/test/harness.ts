import type { FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { hasWebhook, loadConfig, type Config } from '../platform/config.ts';
import { openDatabase, type DatabaseHandle } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import type { Bus } from '../platform/bus.ts';
import { freePort, freshPostgresDatabase } from './processes.ts';

/** A free TCP port on the loopback interface (kept with the server processes that need one). */
export { freePort };

export interface TestApp {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** Set when started with `listen: true`. */
  readonly baseUrl: string;
  /** The PostgreSQL database's URL (TEST_DATABASE_URL set); undefined on PGlite. */
  readonly databaseUrl?: string;
  close(): Promise<void>;
}

const MIGRATIONS = path.resolve(import.meta.dirname, '../platform/db');

let template: Promise<Blob> | undefined;
/** PGlite's package.json: in the app's node_modules, or the workspace's where npm hoisted it. */
function pglitePackage(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules/@electric-sql/pglite/package.json');
    if (existsSync(file)) {
      return file;
    }
  }
  throw new Error('@electric-sql/pglite is not installed (npm install)');
}

/**
 * An in-memory PGlite migrated to the latest schema, as a dump of its data folder: initdb and the
 * migrations take a second or two of CPU for every test app, a load of the dump a fraction of it.
 * Built once per version of the migrations (the dump's name holds a hash of their sources and of
 * PGlite's version) and kept in the system's temporary folder for every test file of the run.
 */
function migratedPglite(): Promise<Blob> {
  template ??= (async () => {
    const hash = createHash('sha256');
    // PGlite's version: a dump of another version may not load.
    hash.update(readFileSync(pglitePackage()));
    for (const folder of [MIGRATIONS, path.join(MIGRATIONS, 'migrations')]) {
      for (const name of readdirSync(folder).sort()) {
        if (name.endsWith('.ts') && !name.endsWith('.test.ts')) {
          hash.update(name).update(readFileSync(path.join(folder, name)));
        }
      }
    }
    const file = path.join(
      os.tmpdir(),
      `loopdesk-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`,
    );
    if (existsSync(file)) {
      return new Blob([readFileSync(file)]);
    }
    const database = await openDatabase({
      databaseUrl: undefined,
      pgliteDataDir: 'memory://',
      webhookDeliveries: false,
    });
    await migrateToLatest(database);
    const dump = (await database.dumpDataDir?.()) as Blob;
    await database.close();
    // Written whole, then renamed: a test file reading it meanwhile never sees a part.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return template;
}

/**
 * The real app from `buildApp` on in-memory PGlite, or on PostgreSQL in a database of its own when
 * TEST_DATABASE_URL is set.
 */
export async function startTestApp(
  options: {
    listen?: boolean;
    /** The host of PUBLIC_URL (the app listens on 127.0.0.1 whatever it says). */
    publicHost?: string;
    env?: Record<string, string>;
    /** Pino options (e.g. a stream to read the log); silent when absent. */
    logger?: Record<string, unknown>;
    /** Connections of the shared pool (PostgreSQL only). */
    poolSize?: number;
    /**
     * Record webhook deliveries as a node with a webhook does, without starting its worker (the
     * test runs delivery workers itself); by default as the configuration says.
     */
    webhookDeliveries?: boolean;
    /** Where PGlite keeps its files (a folder on disk); in memory when absent. */
    pgliteDataDir?: string;
    /** Cross-node events shared with other apps of the test; in-process of its own when absent. */
    bus?: Bus;
  } = {},
): Promise<TestApp> {
  const port = options.listen ? await freePort() : 0;
  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PORT: String(port || 8080),
      PUBLIC_URL: `http://${options.publicHost ?? '127.0.0.1'}:${port || 8080}`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent-web-dist',
      // No agreement samples unless a test asks (a random second delivery would surprise tests).
      AGREEMENT_SAMPLE_SHARE: '0',
      ...options.env,
    },
    { pgliteDataDir: options.pgliteDataDir ?? 'memory://' },
  );
  // A database of its own rather than a schema: Kysely's migrator reads the catalog of every
  // schema in the database, and a neighbouring test file dropping its schema at that moment made
  // the read fail ("schema … does not exist").
  const fresh = testDatabaseUrl ? await freshPostgresDatabase(testDatabaseUrl, 'test') : undefined;
  const database = await openDatabase({
    databaseUrl: fresh?.url,
    pgliteDataDir: options.pgliteDataDir ?? 'memory://',
    // A fresh in-memory PGlite starts migrated; a data folder on disk (restarts, backups) and
    // PostgreSQL are migrated below as a server does.
    ...(!fresh && !options.pgliteDataDir ? { pgliteLoadDataDir: await migratedPglite() } : {}),
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    webhookDeliveries: options.webhookDeliveries ?? hasWebhook(config),
  });
  await migrateToLatest(database);
  const app = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    ...(options.bus ? { bus: options.bus } : {}),
  });
  if (options.listen) {
    await app.listen({ port, host: '127.0.0.1' });
  } else {
    await app.ready();
  }
  return {
    app,
    config,
    database,
    baseUrl: `http://127.0.0.1:${port}`,
    ...(fresh ? { databaseUrl: fresh.url } : {}),
    async close() {
      await app.close();
      await database.close();
      await fresh?.drop();
    },
  };
}

/** A tiny cookie jar for driving the sign-in flow with fetch. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) {
        continue;
      }
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((a) => {
        const [key, raw] = a.trim().split('=');
        return (
          (key?.toLowerCase() === 'max-age' && Number(raw) <= 0) ||
          (key?.toLowerCase() === 'expires' && raw !== undefined && Date.parse(raw) < Date.now())
        );
      });
      if (expired || value === '') {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('cookie', this.header());
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }
}

/** Follows redirects by hand (keeping cookies) until a non-redirect answer. */
export async function follow(
  jar: CookieJar,
  url: string,
  init: RequestInit = {},
): Promise<{ response: Response; url: string }> {
  let current = url;
  let response = await jar.fetch(current, init);
  for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
    const location = response.headers.get('location');
    if (!location) {
      break;
    }
    current = new URL(location, current).href;
    response = await jar.fetch(current);
  }
  return { response, url: current };
}

/** Signs in through the development provider as one of its accounts; returns the jar. */
export async function signIn(
  baseUrl: string,
  email: string,
): Promise<{ jar: CookieJar; page: string; status: number }> {
  const jar = new CookieJar();
  const { response, url } = await follow(jar, `${baseUrl}/auth/login`);
  const html = await response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) {
    throw new Error(`No sign-in form at ${url}: ${response.status} ${html.slice(0, 200)}`);
  }
  const done = await follow(jar, new URL(action, baseUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account: email }).toString(),
  });
  return { jar, page: await done.response.text(), status: done.response.status };
}

/** Exchanges the refresh cookie for an access token. */
export async function refresh(baseUrl: string, jar: CookieJar): Promise<Response> {
  return jar.fetch(`${baseUrl}/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
}

/** Signs in and returns an access token for the account. */
export async function accessTokenFor(
  baseUrl: string,
  email: string,
): Promise<{ token: string; jar: CookieJar }> {
  const { jar } = await signIn(baseUrl, email);
  const response = await refresh(baseUrl, jar);
  if (response.status !== 200) {
    throw new Error(`refresh failed: ${response.status} ${await response.text()}`);
  }
  const body = (await response.json()) as { accessToken: string };
  return { token: body.accessToken, jar };
}
