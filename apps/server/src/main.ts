import { buildApp } from './app.ts';
import { ConfigError, hasWebhook, loadConfig } from './platform/config.ts';
import { openDatabase } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';

/** The server process: configuration, database, migrations, listen, graceful shutdown. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nFix these environment variables and start again.\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDataDir: config.pgliteDataDir,
    webhookDeliveries: hasWebhook(config),
  });
  const applied = await migrateToLatest(database);
  const app = await buildApp({ config, database });
  if (applied.length > 0) {
    app.log.info({ migrations: applied }, 'database migrated');
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      return;
    }
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      url: config.publicUrl,
      database: database.kind,
      signIn: config.devSignIn ? 'development provider at /oidc' : config.env.OIDC_ISSUER,
    },
    'Loopdesk is ready',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Loopdesk failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
