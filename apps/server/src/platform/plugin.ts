import fp from 'fastify-plugin';
import type { Config } from './config.ts';
import type { Database, DatabaseHandle } from './db/database.ts';
import { createInProcessBus, type Bus, type BusMessages } from './bus.ts';
import { createRedisBus } from './redis-bus.ts';
import { createTokenService, type TokenService } from './auth/tokens.ts';
import { createSessionStore, type SessionStore } from './auth/sessions.ts';
import { createApiRouter, type ApiRouter } from './api-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The environment as checked at start. */
    config: Config;
    /** The pool, and the dispatch lane for claims. */
    database: DatabaseHandle;
    /** Kysely over the shared pool. */
    db: Database;
    /** Events between nodes: in-process, or Redis pub/sub when `REDIS_URL` is set. */
    bus: Bus;
    /** Access tokens of signed-in users. */
    tokens: TokenService;
    /** Refresh sessions of signed-in users. */
    sessions: SessionStore;
    /** The `/internal` routes of the contracts' table, guarded by their privileges. */
    api: ApiRouter;
  }
}

/**
 * How long a node trusts a session it holds in memory without hearing of it on the bus, and how
 * many it holds (auth/sessions.ts). Logout and role changes reach every node through the bus at
 * once; this only bounds the harm of a lost bus message.
 */
export const SESSION_CACHE_TTL_MS = 5_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

export interface PlatformOptions {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** Cross-node events; from `REDIS_URL` (or in-process) when absent, and then closed with the app. */
  readonly bus?: Bus;
}

/**
 * What every module uses, decorated on the app: configuration, database, bus, tokens, sessions
 * and the `/internal` route router. Modules are Fastify plugins that depend on `platform` by name
 * (modules/<name>/module.ts); none of them builds these for itself.
 */
export const platform = fp<PlatformOptions>(
  async (app, options) => {
    const { config, database } = options;
    const shared =
      options.bus ??
      (config.env.REDIS_URL
        ? await createRedisBus(config.env.REDIS_URL, app.log)
        : createInProcessBus());
    if (!options.bus) {
      app.addHook('onClose', async () => {
        await shared.close();
      });
    }
    const tokens = createTokenService(config.sessionSecret, config.env.ACCESS_TOKEN_TTL_SECONDS);
    const sessions = createSessionStore(
      database.db,
      {
        idleMs: config.env.SESSION_IDLE_MINUTES * 60_000,
        absoluteMs: config.env.SESSION_ABSOLUTE_HOURS * 3_600_000,
        reuseGraceMs: 10_000,
      },
      { bus: shared, ttlMs: SESSION_CACHE_TTL_MS, maxEntries: SESSION_CACHE_MAX_ENTRIES },
    );
    app.addHook('onClose', (_instance, done) => {
      sessions.close();
      done();
    });
    // A role change published here drops the user's sessions from this node's cache before the
    // publisher answers, not only when the message comes back from Redis.
    const bus: Bus = {
      publish(channel, message) {
        if (channel === 'users.roles.changed') {
          sessions.forgetUser((message as BusMessages['users.roles.changed']).userId);
        }
        return shared.publish(channel, message);
      },
      subscribe: (channel, handler) => shared.subscribe(channel, handler),
      close: () => shared.close(),
    };
    app.decorate('config', config);
    app.decorate('database', database);
    app.decorate('db', database.db);
    app.decorate('bus', bus);
    app.decorate('tokens', tokens);
    app.decorate('sessions', sessions);
    app.decorate('api', createApiRouter(app, tokens, sessions));
  },
  { name: 'platform' },
);
