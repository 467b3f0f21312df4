import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';

export interface DevAccount {
  readonly email: string;
  readonly displayName: string;
}

export const DEV_PROVIDER_PATH = '/oidc';
export const DEV_CLIENT_ID = 'loopdesk-portal';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;background:#121212;color:#eee;display:flex;justify-content:center;margin:0;padding:32px}
main{max-width:420px;width:100%}h1{font-size:1.3rem}p{color:#bbb;font-size:.9rem}
button{display:block;width:100%;margin:8px 0;padding:12px;font-size:1rem;border-radius:6px;border:1px solid #555;background:#1e1e1e;color:#fff;cursor:pointer;text-align:left}
button:hover,button:focus{background:#2a3a55;outline:2px solid #90caf9}
small{display:block;color:#999}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The embedded development identity provider, mounted at /oidc when OIDC_ISSUER is unset. Its
 * sign-in page lists the demo accounts; one click signs in. It refuses to start in production.
 */
export async function mountDevProvider(
  app: FastifyInstance,
  options: {
    publicUrl: string;
    nodeEnv: string;
    clientSecret: string;
    cookieSecret: string;
    accounts: readonly DevAccount[];
  },
): Promise<void> {
  if (options.nodeEnv === 'production') {
    throw new Error(
      'The development sign-in provider refuses to start with NODE_ENV=production: set OIDC_ISSUER.',
    );
  }
  // Loaded only here: a server signing in through a real provider never loads it (it prints its own
  // development-only warnings, which would confuse the operators of such a server).
  const { default: Provider } = await import('oidc-provider');
  const accounts = new Map(options.accounts.map((a) => [a.email, a]));
  // A signing key per process: the provider's tokens live only as long as a sign-in.
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'dev', alg: 'RS256', use: 'sig' };
  const configuration: Configuration = {
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        client_secret: options.clientSecret,
        redirect_uris: [`${options.publicUrl}/auth/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    cookies: { keys: [options.cookieSecret] },
    jwks: { keys: [signingKey] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: {
      Interaction: 600,
      Session: 12 * 3600,
      Grant: 12 * 3600,
      AuthorizationCode: 60,
      IdToken: 600,
      AccessToken: 600,
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) =>
        `${DEV_PROVIDER_PATH}/interaction/${interaction.uid}`,
    },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const account = accounts.get(id);
      if (!account) {
        return undefined;
      }
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.displayName,
        }),
      };
    },
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<h1>Sign-in error</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p>`,
      );
    },
  };
  const provider = new Provider(`${options.publicUrl}${DEV_PROVIDER_PATH}`, configuration);
  // One origin for the issuer and every endpoint, whatever host the request came on: the
  // provider builds endpoint URLs from the request (Koa's host and protocol), so each forwarded
  // request says it arrived at PUBLIC_URL. Without this, discovery asked on 127.0.0.1 gave
  // 127.0.0.1 endpoints under a localhost issuer, which OIDC clients rightly refuse.
  provider.proxy = true;
  const publicOrigin = new URL(options.publicUrl);
  const callback = provider.callback();

  await app.register(
    (scope, _opts, done) => {
      // The provider reads request bodies itself: keep every body as an unread stream.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, next) => {
        next(null);
      });

      /** Hijacked handlers answer their own errors: Fastify no longer can. */
      const guarded =
        <R extends FastifyRequest>(handler: (request: R, reply: FastifyReply) => Promise<void>) =>
        async (request: R, reply: FastifyReply) => {
          reply.hijack();
          try {
            await handler(request, reply);
          } catch (error) {
            request.log.warn({ err: error }, 'development sign-in interaction failed');
            if (!reply.raw.headersSent) {
              reply.raw.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
            }
            reply.raw.end(
              page(
                'Sign-in error',
                '<h1>Sign-in error</h1><p>This sign-in has expired or was not found. Close this window and start again.</p>',
              ),
            );
          }
        };

      scope.get<{ Params: { uid: string } }>(
        '/interaction/:uid',
        guarded(async (request: FastifyRequest<{ Params: { uid: string } }>, reply) => {
          const details = await provider.interactionDetails(request.raw, reply.raw);
          if (details.prompt.name === 'consent') {
            // The portal is the provider's only client: consent is implied.
            const grant = details.grantId
              ? await provider.Grant.find(details.grantId)
              : new provider.Grant({
                  accountId: details.session?.accountId,
                  clientId: String(details.params.client_id),
                });
            if (!grant) {
              throw new Error('The sign-in grant was not found.');
            }
            const missing = details.prompt.details as {
              missingOIDCScope?: string[];
              missingOIDCClaims?: string[];
            };
            if (missing.missingOIDCScope) {
              grant.addOIDCScope(missing.missingOIDCScope.join(' '));
            }
            if (missing.missingOIDCClaims) {
              grant.addOIDCClaims(missing.missingOIDCClaims);
            }
            const grantId = await grant.save();
            await provider.interactionFinished(
              request.raw,
              reply.raw,
              { consent: { grantId } },
              { mergeWithLastSubmission: true },
            );
            return;
          }
          const buttons = [...accounts.values()]
            .map(
              (a) =>
                `<button type="submit" name="account" value="${escapeHtml(a.email)}">${escapeHtml(a.email)}<small>${escapeHtml(a.displayName)}</small></button>`,
            )
            .join('');
          const html = page(
            'Loopdesk development sign-in',
            `<h1>Loopdesk development sign-in</h1><p>Development only: choose a demo account.</p>
<form method="post" action="${DEV_PROVIDER_PATH}/interaction/${escapeHtml(request.params.uid)}/login">${buttons}</form>`,
          );
          reply.raw.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          reply.raw.end(html);
        }),
      );

      scope.post<{ Params: { uid: string } }>(
        '/interaction/:uid/login',
        guarded(async (request, reply) => {
          const chunks: Buffer[] = [];
          for await (const chunk of request.raw) {
            chunks.push(chunk as Buffer);
          }
          const account =
            new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('account') ?? '';
          if (!accounts.has(account)) {
            reply.raw.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
            reply.raw.end(
              page(
                'Sign-in error',
                `<h1>Unknown account</h1><p>Choose one of the listed demo accounts.</p>`,
              ),
            );
            return;
          }
          await provider.interactionFinished(
            request.raw,
            reply.raw,
            { login: { accountId: account } },
            { mergeWithLastSubmission: false },
          );
        }),
      );

      const forward = (request: FastifyRequest, reply: FastifyReply) => {
        reply.hijack();
        const raw = request.raw as typeof request.raw & { originalUrl?: string };
        raw.originalUrl = raw.url;
        raw.url = (raw.url ?? '/').slice(DEV_PROVIDER_PATH.length) || '/';
        raw.headers['x-forwarded-host'] = publicOrigin.host;
        raw.headers['x-forwarded-proto'] = publicOrigin.protocol.replace(/:$/, '');
        void callback(raw, reply.raw);
      };
      scope.all('/*', forward);
      done();
    },
    { prefix: DEV_PROVIDER_PATH },
  );
}
