import { userInfo } from 'node:os';
import { pathToFileURL } from 'node:url';
import { ApiKeyIdParams, CreateApiKeyBody } from '@loopdesk/contracts/integration.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from './platform/bus.ts';
import { ConfigError, hasWebhook, loadConfig } from './platform/config.ts';
import { createRedisBus } from './platform/redis-bus.ts';
import { openDatabase, type DatabaseHandle } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { AppError } from './platform/errors.ts';
import { createApiKeysService, toApiKeyView } from './modules/integration/api-keys.ts';

const USAGE = `Usage:
  npm run api-key -- create <name>   create a key; the full key is printed once
  npm run api-key -- list            list keys (never their secrets)
  npm run api-key -- revoke <id>     revoke a key at once`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

function osUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

/**
 * Runs `api-key create|list|revoke` against a database; returns the exit code. With `bus` (Redis,
 * when REDIS_URL is set), a revocation is announced to the running nodes at once; without it they
 * drop the key when their memory of it ends (API_KEY_CACHE_TTL_MS, a second).
 */
export async function runApiKeyCommand(
  args: readonly string[],
  database: DatabaseHandle,
  io: CliIo,
  bus?: Bus,
): Promise<number> {
  const keys = createApiKeysService(database.db, bus ? { bus } : undefined);
  const actor = { userId: null, email: null, via: 'cli' as const };
  const origin = { ip: null, userAgent: `cli (${osUser() ?? 'unknown user'})`, requestId: null };
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'create': {
        const parsed = CreateApiKeyBody.safeParse({ name: rest.join(' ') });
        if (!parsed.success) {
          io.err(`The name ${parsed.error.issues[0]?.message ?? 'is invalid'}.\n${USAGE}`);
          return 2;
        }
        const { row, key } = await keys.create(parsed.data.name, actor, origin);
        io.out(`Created API key '${row.name}' (id ${row.id}, prefix ${row.prefix}).`);
        io.out('Store it now: it is shown only this once.');
        io.out(key);
        return 0;
      }
      case 'list': {
        const rows = (await keys.list()).map(toApiKeyView);
        if (rows.length === 0) {
          io.out('No API keys yet: npm run api-key -- create <name>');
          return 0;
        }
        for (const key of rows) {
          io.out(
            [
              key.id,
              `ldk_${key.prefix}_…`,
              key.revokedAt ? `revoked ${key.revokedAt}` : 'active',
              `created ${key.createdAt}`,
              key.name,
            ].join('  '),
          );
        }
        return 0;
      }
      case 'revoke': {
        const parsed = ApiKeyIdParams.safeParse({ id: rest[0] });
        if (!parsed.success) {
          io.err(`The id ${parsed.error.issues[0]?.message ?? 'is invalid'}.\n${USAGE}`);
          return 2;
        }
        const before = (await keys.list()).find((row) => row.id === parsed.data.id);
        const row = await keys.revoke(parsed.data.id, actor, origin);
        io.out(
          before?.revoked_at
            ? `API key '${row.name}' was already revoked on ${row.revoked_at?.toISOString() ?? ''}.`
            : `Revoked API key '${row.name}' (${row.id}).`,
        );
        return 0;
      }
      case undefined:
      default:
        io.err(USAGE);
        return 2;
    }
  } catch (error) {
    if (error instanceof AppError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

/** `node --import tsx apps/server/src/cli.ts api-key …`: the same database as the server. */
async function main(argv: readonly string[]): Promise<number> {
  const io: CliIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
  const [area, ...args] = argv;
  if (area !== 'api-key') {
    io.err(USAGE);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDataDir: config.pgliteDataDir,
    poolSize: 2,
    webhookDeliveries: hasWebhook(config),
  });
  const bus = config.env.REDIS_URL
    ? await createRedisBus(config.env.REDIS_URL, {
        warn: (_details: unknown, message?: string) => io.err(message ?? 'redis warning'),
        error: (_details: unknown, message?: string) => io.err(message ?? 'redis error'),
      } as Pick<FastifyBaseLogger, 'error' | 'warn'>)
    : undefined;
  try {
    await migrateToLatest(database);
    return await runApiKeyCommand(args, database, io, bus);
  } finally {
    await bus?.close();
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
