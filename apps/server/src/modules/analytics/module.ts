import fp from 'fastify-plugin';
import { registerDashboardRoute, registerEmbedRoutes } from './routes.ts';
import { createRollups, type Rollups } from './rollups.ts';
import { createEmbedSigner } from './signing.ts';

declare module 'fastify' {
  interface FastifyInstance {
    analytics: { readonly rollups: Rollups };
  }
}

/**
 * The analytics dashboard (issue 16): the signed address `/` embeds, the built-in page's figures
 * and the rollups behind them, brought up to date in the background.
 */
export default fp(
  (app, _options, done) => {
    const signer = createEmbedSigner(app.config.sessionSecret);
    const rollups = createRollups(app.db);
    const deps = { db: app.db, config: app.config, signer, rollups };
    registerDashboardRoute(app.api, deps);
    registerEmbedRoutes(app.api, deps);
    app.decorate('analytics', { rollups });

    // The rollups are brought up to date here only, in the background (never on a view's
    // request path): at start, then every ANALYTICS_REFRESH_SECONDS, one run at a time; a run
    // that finds another node's running leaves the work to it.
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> | null = null;
    const run = () => {
      running ??= rollups
        .refresh({ skipIfRunning: true })
        .catch((error: unknown) => {
          app.log.warn({ err: error }, 'the analytics refresh failed; the next run tries again');
        })
        .finally(() => {
          running = null;
        });
    };
    app.addHook('onReady', () => {
      run();
      timer = setInterval(run, app.config.env.ANALYTICS_REFRESH_SECONDS * 1000);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
    done();
  },
  { name: 'analytics', dependencies: ['platform'] },
);
