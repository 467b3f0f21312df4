import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  AUTH_CHANNEL,
  SIGNED_IN_MESSAGE,
  SIGN_IN_FAILED_MESSAGE,
} from '@loopdesk/contracts/users.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { errorBody } from '../../platform/errors.ts';
import type { OidcClient, SignInIdentity } from './oidc-client.ts';
import { SignInError } from './oidc-client.ts';
import type { SignInService } from './service.ts';

export const REFRESH_COOKIE = 'loopdesk_refresh';
export const TRANSACTION_COOKIE = 'loopdesk_auth_tx';

export interface AuthRoutesOptions {
  service: SignInService;
  oidc: OidcClient;
  secureCookies: boolean;
  absoluteMs: number;
  rateLimit: number;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page the popup lands on: it tells the portal and closes, or shows what went wrong. */
function popupPage(
  reply: FastifyReply,
  status: number,
  message: { type: string; message?: string },
) {
  const nonce = randomBytes(16).toString('base64');
  const payload = JSON.stringify(message).replace(/</g, '\\u003c');
  const failed = message.type !== SIGNED_IN_MESSAGE;
  const text = failed
    ? `<h1>Sign-in refused</h1><p>${escapeHtml(message.message ?? '')}</p><p>Close this window and try again.</p>`
    : '<h1>Signed in</h1><p>You can close this window.</p>';
  const script = `(function(){var m=${payload};try{new BroadcastChannel(${JSON.stringify(AUTH_CHANNEL)}).postMessage(m);}catch(e){}
if(window.opener){window.opener.postMessage(m,location.origin);${failed ? '' : 'window.close();'}}else if(!${failed}){location.replace('/');}})();`;
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'`,
    )
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loopdesk sign-in</title>
<style>body{font-family:system-ui,sans-serif;background:#121212;color:#eee;padding:32px}</style></head>
<body>${text}<script nonce="${nonce}">${script}</script></body></html>`,
    );
}

/** Sign-in (popup), refresh, logout. */
export function registerAuthRoutes(app: FastifyInstance, options: AuthRoutesOptions): void {
  const { service } = options;
  const cookieBase = { httpOnly: true, secure: options.secureCookies, path: '/auth' } as const;
  const limited = (max: number) => ({ config: { rateLimit: { max, timeWindow: '1 minute' } } });
  /**
   * Refresh and logout act on the cookie alone, so they take only JSON: a page of another origin
   * cannot send that without a CORS preflight, which this server never grants (docs/adr/0001).
   * Checked before the body is parsed, so that every other type gets this answer.
   */
  const limitedJsonOnly = (max: number) => ({
    ...limited(max),
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') {
        const path = request.url.split('?')[0] ?? '';
        return reply
          .status(400)
          .send(
            errorBody(
              400,
              `Send ${request.method} ${path} with Content-Type: application/json and a JSON body such as {}.`,
              [{ path: 'headers.content-type', message: 'must be application/json' }],
            ),
          );
      }
      return undefined;
    },
  });

  const refuse = async (
    request: FastifyRequest,
    reply: FastifyReply,
    message: string,
    email?: string,
  ) => {
    await service.refused(message, email, requestOrigin(request));
    return popupPage(reply, 401, { type: SIGN_IN_FAILED_MESSAGE, message });
  };

  app.get('/auth/login', limited(options.rateLimit), async (request, reply) => {
    try {
      const { transactionId, url } = await options.oidc.begin();
      void reply.setCookie(TRANSACTION_COOKIE, transactionId, {
        ...cookieBase,
        sameSite: 'lax',
        maxAge: 600,
      });
      return reply.redirect(url);
    } catch (error) {
      request.log.error({ err: error }, 'identity provider unreachable');
      return popupPage(reply, 503, {
        type: SIGN_IN_FAILED_MESSAGE,
        message: 'The identity provider cannot be reached right now. Try again in a minute.',
      });
    }
  });

  app.get('/auth/callback', limited(options.rateLimit), async (request, reply) => {
    const transactionId = request.cookies[TRANSACTION_COOKIE];
    void reply.clearCookie(TRANSACTION_COOKIE, { ...cookieBase, sameSite: 'lax' });
    let identity: SignInIdentity;
    try {
      identity = await options.oidc.complete(
        transactionId,
        new URL(request.url, 'http://callback.invalid'),
      );
    } catch (error) {
      if (error instanceof SignInError) {
        return refuse(request, reply, error.message);
      }
      throw error;
    }
    const problem = service.problemWith(identity);
    if (problem) {
      return refuse(request, reply, problem, identity.email);
    }
    const { refreshToken } = await service.signIn(identity, requestOrigin(request));
    void reply.setCookie(REFRESH_COOKIE, refreshToken, {
      ...cookieBase,
      sameSite: 'strict',
      maxAge: Math.floor(options.absoluteMs / 1000),
    });
    return popupPage(reply, 200, { type: SIGNED_IN_MESSAGE });
  });

  app.post('/auth/refresh', limitedJsonOnly(options.rateLimit * 4), async (request, reply) => {
    const token = request.cookies[REFRESH_COOKIE];
    if (!token) {
      // No cookie: nobody is signed in in this browser, which is a normal answer, not an error
      // (issue 20 #24: a signed-out cold start logs nothing in the console). A cookie the server
      // refuses stays a 401 below, and is cleared, so it shows once.
      return reply.status(204).header('cache-control', 'no-store').send();
    }
    const result = await service.refresh(token);
    if (result.kind === 'retry') {
      // Keep the cookie: the browser already holds the token that replaced this one.
      return reply.status(401).header('retry-after', '1').send(errorBody(401, result.reason));
    }
    if (result.kind === 'refused') {
      void reply.clearCookie(REFRESH_COOKIE, { ...cookieBase, sameSite: 'strict' });
      return reply.status(401).send(errorBody(401, result.reason));
    }
    void reply.setCookie(REFRESH_COOKIE, result.refreshToken, {
      ...cookieBase,
      sameSite: 'strict',
      maxAge: Math.floor(options.absoluteMs / 1000),
    });
    return reply.header('cache-control', 'no-store').send(result.body);
  });

  app.post('/auth/logout', limitedJsonOnly(options.rateLimit), async (request, reply) => {
    const token = request.cookies[REFRESH_COOKIE];
    void reply.clearCookie(REFRESH_COOKIE, { ...cookieBase, sameSite: 'strict' });
    await service.logout(token, requestOrigin(request));
    return reply.status(204).send();
  });
}
