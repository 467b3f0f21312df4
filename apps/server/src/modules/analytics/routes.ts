import type { FastifyRequest } from 'fastify';
import { ANALYTICS_VIEW_HEADER, EmbedOpenQuery } from '@loopdesk/contracts/analytics.ts';
import { hasPrivilege, type Role } from '@loopdesk/contracts/privileges.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { readFigures } from './figures.ts';
import type { Rollups } from './rollups.ts';
import { metabaseEmbedUrl, type EmbedSigner } from './signing.ts';

/** The built-in page's path (a screen of the web app outside the shell). */
export const EMBED_PATH = '/analytics/embed';
/** The header that carries the page's view token (never the address: it stays out of logs). */
export const VIEW_HEADER = ANALYTICS_VIEW_HEADER;

interface Deps {
  readonly db: Database;
  readonly config: Config;
  readonly signer: EmbedSigner;
  readonly rollups: Rollups;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The roles a user holds now (not when the address was signed): a removed role ends the view. */
async function currentUser(db: Database, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'roles'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** `GET /internal/analytics/dashboard`: the address `/` embeds (spec 3 §7, issue 16 item 1). */
export function registerDashboardRoute(api: ApiRouter, deps: Deps): void {
  const env = deps.config.env;
  api.route('GET /internal/analytics/dashboard', async (request) => {
    const user = request.user;
    if (!user) {
      throw unauthorized('Sign in first.');
    }
    const provider = env.ANALYTICS_EMBED;
    const url =
      provider === 'metabase' &&
      env.METABASE_SITE_URL &&
      env.METABASE_SECRET_KEY &&
      env.METABASE_DASHBOARD_ID
        ? metabaseEmbedUrl({
            siteUrl: env.METABASE_SITE_URL,
            secretKey: env.METABASE_SECRET_KEY,
            dashboardId: env.METABASE_DASHBOARD_ID,
            params: env.METABASE_PARAMS ?? {},
            ttlSeconds: env.ANALYTICS_EMBED_TTL_SECONDS,
          })
        : `${EMBED_PATH}?token=${deps.signer.sign({
            aud: 'embed',
            sub: user.id,
            exp: nowSeconds() + env.ANALYTICS_EMBED_TTL_SECONDS,
          })}`;
    await recordAudit(
      deps.db,
      {
        action: 'analytics.dashboard.address',
        outcome: 'success',
        actorId: user.id,
        actorEmail: user.email,
        resourceType: 'analytics',
        statusCode: 200,
        details: { provider, ttlSeconds: env.ANALYTICS_EMBED_TTL_SECONDS },
      },
      requestOrigin(request),
    );
    return { url };
  });
}

/**
 * The built-in page's own calls, authorised by its signed tokens rather than a portal session
 * (the frame has none): open with the address's token, then read figures with the view token.
 * Both are routes of the table (access `withEmbedToken`); the router runs the token check lent
 * here once their query and headers are validated.
 */
export function registerEmbedRoutes(api: ApiRouter, deps: Deps): void {
  const env = deps.config.env;

  /** The user behind a token, refused (401/403, audited) when the token or their roles fail. */
  async function holder(request: FastifyRequest, token: string, audience: 'embed' | 'view') {
    const verified = deps.signer.verify(token, audience);
    if ('reason' in verified) {
      throw unauthorized(verified.reason, { error: 'invalid_token' });
    }
    const user = await currentUser(deps.db, verified.claims.sub);
    const roles = (user?.roles ?? []) as Role[];
    if (!user || !hasPrivilege(roles, 'analytics:dashboard:view')) {
      request.user = user ? { id: user.id, email: user.email, roles, sessionId: '' } : null;
      throw forbidden('Viewing analytics needs the privilege analytics:dashboard:view.');
    }
    request.user = { id: user.id, email: user.email, roles, sessionId: '' };
  }

  api.useEmbedTokenGuard(async (request, kind) => {
    if (kind === 'address') {
      // The query is validated already: this only reads its token, typed.
      await holder(request, EmbedOpenQuery.parse(request.query).token, 'embed');
      return;
    }
    const token = request.headers[VIEW_HEADER];
    if (typeof token !== 'string') {
      throw unauthorized(
        `Open the analytics page first: this call needs its ${VIEW_HEADER} header.`,
      );
    }
    await holder(request, token, 'view');
  });

  /** The page's holder, whom the token guard set (it refused every request without one). */
  function viewer(request: FastifyRequest) {
    const user = request.user;
    if (!user) {
      throw unauthorized('Open the dashboard again from the portal.');
    }
    return { user, people: hasPrivilege(user.roles, 'analytics:people:view') };
  }

  api.route(
    'GET /internal/analytics/embed/_open',
    {
      docs: {
        tags: ['analytics'],
        summary: 'Opens the built-in analytics page with its signed address',
      },
    },
    async (request) => {
      const { user, people } = viewer(request);
      const exp = nowSeconds() + env.ANALYTICS_VIEW_TTL_SECONDS;
      await recordAudit(
        deps.db,
        {
          action: 'analytics.embed.open',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'analytics',
          statusCode: 200,
          details: { people },
        },
        requestOrigin(request),
      );
      return {
        viewToken: deps.signer.sign({ aud: 'view', sub: user.id, exp }),
        expiresAt: new Date(exp * 1000).toISOString(),
        people,
      };
    },
  );

  api.route(
    'GET /internal/analytics/embed/figures',
    { docs: { tags: ['analytics'], summary: 'The figures of the built-in analytics page' } },
    async (request) => {
      const { user, people } = viewer(request);
      // The rollups as the background refresh left them (module.ts): never refreshed here, so
      // a view costs the same however much changed (the page shows when they were refreshed).
      const refreshedAt = await deps.rollups.refreshedAt();
      const figures = await readFigures(deps.db, request.query, { people, refreshedAt });
      await recordAudit(
        deps.db,
        {
          action: 'analytics.view',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'analytics',
          statusCode: 200,
          details: { filters: figures.filters, people },
        },
        requestOrigin(request),
      );
      return figures;
    },
  );
}
