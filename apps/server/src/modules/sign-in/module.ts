import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import { DEMO_ACCOUNTS } from '../users/demo-accounts.ts';
import { DEV_CLIENT_ID, DEV_PROVIDER_PATH, mountDevProvider } from './dev-provider.ts';
import { createOidcClient } from './oidc-client.ts';
import { createSignInRepository } from './repository.ts';
import { registerAuthRoutes } from './routes.ts';
import { createSignInService } from './service.ts';

/**
 * Sign-in (docs/sign-in.md): the OIDC relying party behind `/auth/login` and `/auth/callback`,
 * refresh and logout. Without OIDC_ISSUER, it mounts the development identity provider at /oidc
 * with the demo accounts and signs in against it. Tokens, sessions and the guard stay in
 * platform/auth: every module uses them.
 */
export default fp(
  async (app) => {
    const { config, db, sessions, tokens } = app;
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
    }
    registerAuthRoutes(app, {
      service: createSignInService({
        db,
        users: app.users,
        sessions,
        tokens,
        allowedDomains: config.env.OIDC_ALLOWED_DOMAINS,
        adminEmails: config.env.ADMIN_EMAILS,
      }),
      oidc: createOidcClient({
        transactions: createSignInRepository(db),
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
      secureCookies: config.publicUrl.startsWith('https://'),
      absoluteMs: config.env.SESSION_ABSOLUTE_HOURS * 3_600_000,
      rateLimit: config.env.SIGN_IN_RATE_LIMIT,
    });
  },
  { name: 'sign-in', dependencies: ['platform', 'users'] },
);
