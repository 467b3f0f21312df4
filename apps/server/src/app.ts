import Fastify, { LogController, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { PortalConfig } from '@loopdesk/contracts/users.ts';
import { API_ROUTES } from '@loopdesk/contracts/routes.ts';
import { portalEnvironment, type Config } from './platform/config.ts';
import { isReachable, type DatabaseHandle } from './platform/db/database.ts';
import { errorBody, errorsPlugin, routerRefusal } from './platform/errors.ts';
import { storableTextPlugin } from './platform/storable-text.ts';
import { securityHeadersPlugin } from './platform/security-headers.ts';
import { metricsPlugin } from './platform/metrics.ts';
import { checkResponses, declareApiResponses } from './platform/declared-responses.ts';
import { createAuditWriter, type AuditWriter } from './platform/audit-writer.ts';
import { openAuditJournal, type AuditJournal } from './platform/audit-journal.ts';
import { registerPatientDataAudit, requestOrigin } from './platform/audit.ts';
import { platform } from './platform/plugin.ts';
import users from './modules/users/module.ts';
import signIn from './modules/sign-in/module.ts';
import knowledge from './modules/knowledge/module.ts';
import jobs from './modules/jobs/module.ts';
import realtime from './modules/realtime/module.ts';
import integration from './modules/integration/module.ts';
import { registerOpenApi } from './modules/integration/openapi.ts';
import conversations from './modules/conversations/module.ts';
import scheduling from './modules/scheduling/module.ts';
import workbench from './modules/workbench/module.ts';
import exceptions from './modules/exceptions/module.ts';
import asyncJobs from './modules/async-jobs/module.ts';
import intelligence from './modules/intelligence/module.ts';
import summaries from './modules/summaries/module.ts';
import conversationInsights from './modules/conversation-insights/module.ts';
import dataPreparation from './modules/data-preparation/module.ts';
import authoring from './modules/authoring/module.ts';
import system from './modules/system/module.ts';
import messaging from './modules/messaging/module.ts';
import deepLinks from './modules/deep-links/module.ts';
import analytics from './modules/analytics/module.ts';
import type { Bus } from './platform/bus.ts';

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

/** What a caller's `X-Request-ID` may be: a UUID, or letters, digits and dashes, up to 64. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The request's id: the caller's `X-Request-ID` when it matches REQUEST_ID_PATTERN (so a trace
 * crosses services), else a new UUID. Anything else (control characters, 10 kB, a forged log
 * line) never reaches the logs or the audit trail.
 */
function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/** Builds the whole HTTP app without listening, so tests can inject requests or pick a port. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const { db } = database;
  const app = Fastify({
    logger: deps.logger ?? { level: config.env.LOG_LEVEL },
    bodyLimit: config.env.BODY_LIMIT_BYTES,
    // A caller's X-Request-ID is kept only when well formed: it lands in logs and audit rows.
    requestIdHeader: false,
    genReqId: requestId,
    trustProxy: config.nodeEnv === 'production',
    return503OnClosing: true,
    // Loading a knowledge base of hundreds of thousands of concepts (checking it, building the
    // recogniser) takes longer than Fastify's default 10 s per plugin on a busy 2-core machine;
    // concept search itself is indexed in the background (issue 22).
    pluginTimeout: 300_000,
    // One line per request instead of two (the onResponse hook of hardenHttp).
    logController: new LogController({ disableRequestLogging: true }),
    // The router's own refusals (a path parameter over 100 characters, a malformed URL) answer
    // in the one error shape too.
    frameworkErrors: routerRefusal,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);

  // The node's audit journal, replayed into the database before anything is served.
  const temporary = config.auditJournalDir
    ? undefined
    : mkdtempSync(path.join(os.tmpdir(), 'loopdesk-audit-journal-'));
  const journal = await openAuditJournal({
    dir: config.auditJournalDir ?? (temporary as string),
    database,
    flushMs: config.env.AUDIT_JOURNAL_FLUSH_MS,
    maxBytes: config.env.AUDIT_JOURNAL_MAX_BYTES,
    log: app.log,
  });
  app.decorate('auditJournal', journal);
  app.addHook('onClose', async () => {
    await journal.close();
    if (temporary) {
      rmSync(temporary, { recursive: true, force: true });
    }
  });
  await hardenHttp(app, config, createAuditWriter(database), journal);
  // After the audit hook and before every route, so that its latency hook sees them all.
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

  // The OpenAPI documents list every route registered after this.
  await registerOpenApi(app, {
    version: config.version,
    publicUrl: config.publicUrl,
    termsUrl: config.env.TERMS_URL,
  });
  // What every module uses: config, database, bus, tokens, sessions, the /internal router.
  await app.register(platform, { config, database, ...(deps.bus ? { bus: deps.bus } : {}) });
  // The modules, each after the ones it depends on (their `dependencies` say which). Fastify
  // refuses to start when one comes before a module it depends on.
  await app.register(users);
  await app.register(signIn);
  await app.register(knowledge);
  // The job lifecycle and its outbox, then realtime work: technician sockets, dispatch, sessions.
  await app.register(jobs);
  await app.register(realtime);
  // The integration API before every module with /api/v1 routes (they register through it).
  await app.register(integration);
  await app.register(conversations);
  await app.register(scheduling);
  await app.register(workbench);
  await app.register(exceptions);
  await app.register(asyncJobs);
  await app.register(intelligence);
  await app.register(summaries);
  await app.register(conversationInsights);
  await app.register(dataPreparation);
  await app.register(authoring);
  await app.register(system);
  await app.register(messaging);
  await app.register(deepLinks);
  await app.register(analytics);
  app.api.registerNotBuilt();

  await servePortal(app, config);
  app.log.debug({ routes: API_ROUTES.length }, 'internal routes registered');
  return app;
}

/**
 * What every request meets, before any route: the one error shape, cookies, security headers,
 * rate limits (per route), the audit of every refusal, and one log line per answered request.
 */
async function hardenHttp(
  app: FastifyInstance,
  config: Config,
  auditWriter: AuditWriter,
  journal: AuditJournal,
): Promise<void> {
  await app.register(errorsPlugin);
  await app.register(storableTextPlugin);
  await app.register(cookie);
  await app.register(securityHeadersPlugin, {
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'upgrade-insecure-requests': config.publicUrl.startsWith('https://') ? [] : null,
        'img-src': ["'self'", 'data:', 'https:'],
        // blob: the data-preparation screen frames a PDF it fetched with the access token.
        'frame-src': ["'self'", 'https:', 'blob:'],
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

  // Every API route declares each status it can answer; /api/v1 is rate limited by API key.
  declareApiResponses(app, { apiRateLimit: config.env.API_RATE_LIMIT });
  if (process.env.LOOPDESK_CHECK_RESPONSES === '1') {
    checkResponses(app);
  }
  // Only JSON bodies (and the types a route adds itself): text/plain to a JSON route is a 415.
  app.removeContentTypeParser('text/plain');

  // Every refused request lands in the audit trail, written before the refusal is sent so that
  // nobody (a client, a test) can observe the refusal without its audit entry.
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (reply.statusCode === 401 || reply.statusCode === 403) {
      await auditWriter
        .append(
          {
            action: 'request.refused',
            outcome: 'denied',
            actorId: request.user?.id ?? null,
            actorEmail: request.user?.email ?? null,
            statusCode: reply.statusCode,
            details: { method: request.method, url: request.url },
          },
          requestOrigin(request),
        )
        .catch((error: unknown) => request.log.error({ err: error }, 'audit write failed'));
    }
  });
  // Every call of a route that reads or writes patient data, whatever its outcome.
  registerPatientDataAudit(app, journal);

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
}

/** The built portal with history fallback, and the 404s of everything else. */
async function servePortal(app: FastifyInstance, config: Config): Promise<void> {
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
}
