import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PortalConfig } from '@loopdesk/contracts/users.ts';
import { API_ROUTES } from '@loopdesk/contracts/routes.ts';
import { portalEnvironment, type Config } from './platform/config.ts';
import { isReachable, type DatabaseHandle } from './platform/db/database.ts';
import { errorBody, errorsPlugin } from './platform/errors.ts';
import { metricsPlugin } from './platform/metrics.ts';
import { recordAudit, requestOrigin } from './platform/audit.ts';
import { createOidcClient } from './platform/auth/oidc-client.ts';
import {
  DEV_CLIENT_ID,
  DEV_PROVIDER_PATH,
  mountDevProvider,
} from './platform/auth/dev-provider.ts';
import { registerAuthRoutes } from './platform/auth/routes.ts';
import { platform } from './platform/plugin.ts';
import { createUsersRepository } from './modules/users/repository.ts';
import { DEMO_ACCOUNTS } from './modules/users/demo-accounts.ts';
import { registerUsersRoutes } from './modules/users/routes.ts';
import { registerAsyncJobs } from './modules/async-jobs/register.ts';
import { registerIntelligence } from './modules/intelligence/register.ts';
import { createApiKeysService } from './modules/integration/api-keys.ts';
import { createQuinn } from './modules/quinn/register.ts';
import jobs from './modules/jobs/module.ts';
import realtime from './modules/realtime/module.ts';
import integration from './modules/integration/module.ts';
import exceptions from './modules/exceptions/module.ts';
import type { Bus } from './platform/bus.ts';
import { createHash } from 'node:crypto';

export interface AppDeps {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** Pino options; tests pass `false`. */
  readonly logger?: boolean | Record<string, unknown>;
  /** Cross-node events; in-process when absent. */
  readonly bus?: Bus;
}

const API_PREFIXES = ['/internal/', '/api/', '/auth/', '/oidc/', '/ws/'];
/** Requests that portals and assistants repeat every few seconds. */
const POLLED_PATHS =
  /^\/(healthz|readyz|internal\/queues\/[^/?]+\/_size|internal\/sessions\/_count|api\/v1\/(events|requests))(\?|$)/;

/** Builds the whole HTTP app without listening, so tests can inject requests or pick a port. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const { db } = database;
  const app = Fastify({
    logger: deps.logger ?? { level: config.env.LOG_LEVEL },
    bodyLimit: config.env.BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: config.nodeEnv === 'production',
    return503OnClosing: true,
    // One line per request instead of two (the onResponse hook below).
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);

  await app.register(errorsPlugin);
  await app.register(cookie);
  await app.register(helmet, {
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'upgrade-insecure-requests': config.publicUrl.startsWith('https://') ? [] : null,
        'img-src': ["'self'", 'data:', 'https:'],
        'frame-src': ["'self'", 'https:'],
      },
    },
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      ...errorBody(
        429,
        `Too many requests: wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
      ),
    }),
  });

  // Every refused request lands in the audit trail, written before the refusal is sent so that
  // nobody (a client, a test) can observe the refusal without its audit entry.
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (reply.statusCode === 401 || reply.statusCode === 403) {
      await recordAudit(
        db,
        {
          action: 'request.refused',
          outcome: 'denied',
          actorId: request.user?.id ?? null,
          actorEmail: request.user?.email ?? null,
          statusCode: reply.statusCode,
          details: { method: request.method, url: request.url },
        },
        requestOrigin(request),
      ).catch((error: unknown) => request.log.error({ err: error }, 'audit write failed'));
    }
  });

  // One JSON line per answered request, with its request id. What portals and assistants poll all
  // day long (queue sizes, session counts, the event feed, probes) is logged only at debug level
  // when it succeeds, so that the log shows what people do.
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const level =
      status >= 500 ? 'error' : status < 400 && POLLED_PATHS.test(request.url) ? 'debug' : 'info';
    request.log[level](
      {
        req: { method: request.method, url: request.url },
        res: { statusCode: status },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });

  await app.register(metricsPlugin, { config, database });
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) =>
    (await isReachable(db))
      ? { status: 'ready' }
      : reply.status(503).send(errorBody(503, 'The database is not reachable.')),
  );
  app.get('/portal-config', { schema: { response: { 200: PortalConfig } } }, () => ({
    environment: portalEnvironment(config),
    version: config.version,
    helpCenterUrl: config.env.HELP_CENTER_URL,
    syntheticTestCaseUrl: config.env.SYNTHETIC_TEST_CASE_URL,
    termsUrl: config.env.TERMS_URL,
    priorityWsUrl: config.env.PRIORITY_WS_URL,
  }));

  // What every module uses: config, database, bus, tokens, sessions, the /internal router.
  await app.register(platform, { config, database, ...(deps.bus ? { bus: deps.bus } : {}) });
  const { tokens, sessions, bus, api } = app;

  // Sign-in.
  const absoluteMs = config.env.SESSION_ABSOLUTE_HOURS * 3_600_000;
  let issuer = config.env.OIDC_ISSUER;
  let clientId = config.env.OIDC_CLIENT_ID ?? '';
  let clientSecret = config.env.OIDC_CLIENT_SECRET ?? '';
  if (config.devSignIn) {
    issuer = `${config.publicUrl}${DEV_PROVIDER_PATH}`;
    clientId = DEV_CLIENT_ID;
    clientSecret = createHash('sha256')
      .update(`dev-client:${config.sessionSecret}`)
      .digest('base64url');
    await mountDevProvider(app, {
      publicUrl: config.publicUrl,
      nodeEnv: config.nodeEnv,
      clientSecret,
      cookieSecret: config.sessionSecret,
      accounts: DEMO_ACCOUNTS,
    });
    if (config.env.DEMO) {
      await createUsersRepository(db).ensureAccounts(DEMO_ACCOUNTS);
      if (config.env.DEMO_API_KEY) {
        // `npm start` hands the demo assistant and the server the same key.
        await createApiKeysService(db).ensureKnownKey(config.env.DEMO_API_KEY, 'demo assistant');
      }
    }
  }
  registerAuthRoutes(app, {
    db,
    oidc: createOidcClient({
      db,
      issuer: issuer ?? '',
      clientId,
      clientSecret,
      redirectUri: `${config.publicUrl}/auth/callback`,
      // Google lets its users pick among their accounts; other providers may refuse the value
      // (OIDC Core names it, but oidc-provider, Okta and others answer invalid_request).
      ...(!config.devSignIn && issuer && new URL(issuer).hostname === 'accounts.google.com'
        ? { prompt: 'select_account' }
        : {}),
    }),
    sessions,
    tokens,
    secureCookies: config.publicUrl.startsWith('https://'),
    allowedDomains: config.env.OIDC_ALLOWED_DOMAINS,
    adminEmails: config.env.ADMIN_EMAILS,
    absoluteMs,
    rateLimit: config.env.SIGN_IN_RATE_LIMIT,
  });

  // The job lifecycle, then realtime work: technician sockets, dispatch, sessions.
  await app.register(jobs);
  await app.register(realtime);
  // OpenAPI first: it lists what follows.
  await app.register(integration);
  // The workbench: the portal's questions to the assistant, and the rules every submission meets
  // (added to the hub's submission checks until quinn has its module entry).
  const quinn = createQuinn({ db, bus, config });
  app.hub.addSubmissionCheck((job, type, data) => quinn.checkSubmission(job, type, data));
  await quinn.register(app, api);
  registerUsersRoutes(api, db);
  // Completed async tasks revise the knowledge base the intelligence routes serve.
  const asyncJobs = await registerAsyncJobs(api, { db, config, log: app.log, bus });
  app.addHook('onClose', () => {
    asyncJobs.revisions.close();
    return Promise.resolve();
  });
  registerIntelligence(api, config, asyncJobs.revisions.knowledge, { db });
  // The exception desk (issue 5): conversations handed to reviewers on the exceptions sockets.
  await app.register(exceptions);
  api.registerNotBuilt();

  // The built portal, with history fallback.
  const hasWeb = existsSync(path.join(config.webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      // Files are looked up on each request, not listed once at start: a rebuild while the
      // server runs (new hashed asset names) is served at once.
      wildcard: true,
      index: false,
      // Built assets carry a content hash in their names and never change; every other file (the
      // page itself) is checked again on each visit, so a new release shows at once.
      cacheControl: false,
      setHeaders: (reply, file) => {
        const hashed = path.relative(config.webDist, file).startsWith(`assets${path.sep}`);
        void reply.header(
          'cache-control',
          hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  if (hasWeb) {
    // The page at the root (the static files would answer a directory with 403).
    app.get('/', (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi =
      API_PREFIXES.some((prefix) => url.startsWith(prefix)) ||
      url === '/internal' ||
      url === '/api';
    // HEAD too: monitors and link checkers probe the portal's pages with it.
    if ((request.method !== 'GET' && request.method !== 'HEAD') || isApi) {
      return reply
        .status(404)
        .send(
          errorBody(
            404,
            `No route ${request.method} ${url}. Check the path against the API route table.`,
          ),
        );
    }
    if (url.startsWith('/assets/')) {
      // A missing built file is a 404, not the page: a browser must not run HTML as a script.
      return reply.status(404).type('text/plain').send(`No file ${url} in the built portal.`);
    }
    if (!hasWeb) {
      return reply
        .status(404)
        .type('text/plain')
        .send('The portal is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  app.log.debug({ routes: API_ROUTES.length }, 'internal routes registered');
  return app;
}
