import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed addresses of the built-in analytics page (issue 16): a token is
 * `base64url(JSON claims).base64url(HMAC-SHA256)`, under a key derived from the session secret.
 * `embed` tokens open the page (minutes); `view` tokens, given in exchange, read its figures.
 */
export type Audience = 'embed' | 'view';

export interface EmbedClaims {
  readonly aud: Audience;
  /** The user's id. */
  readonly sub: string;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
}

export type Verified = { claims: EmbedClaims } | { reason: string };

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** Signs and checks the analytics page's tokens with one key. */
export function createEmbedSigner(secret: string) {
  const key = createHmac('sha256', secret).update('loopdesk analytics embed v1').digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();

  return {
    sign(claims: EmbedClaims): string {
      const body = b64(JSON.stringify(claims));
      return `${body}.${b64(mac(body))}`;
    },

    /** The claims of a genuine, unexpired token of this audience, or why it is refused. */
    verify(token: string, audience: Audience, nowMs = Date.now()): Verified {
      const [body, signature, ...rest] = token.split('.');
      const what = audience === 'embed' ? 'analytics address' : 'analytics view token';
      if (!body || !signature || rest.length > 0) {
        return { reason: `The ${what} is malformed: open the dashboard again from the portal.` };
      }
      const expected = mac(body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return {
          reason: `The ${what} has been altered (its signature does not match): open the dashboard again from the portal.`,
        };
      }
      let claims: Partial<EmbedClaims>;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as EmbedClaims;
      } catch {
        return { reason: `The ${what} is malformed: open the dashboard again from the portal.` };
      }
      if (claims.aud !== audience || typeof claims.sub !== 'string') {
        return {
          reason: `This token is not an ${what}: open the dashboard again from the portal.`,
        };
      }
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) {
        const when =
          typeof claims.exp === 'number'
            ? new Date(claims.exp * 1000).toISOString()
            : 'an unknown time';
        return {
          reason: `The ${what} expired at ${when}: open the dashboard again from the portal.`,
        };
      }
      return { claims: { aud: claims.aud, sub: claims.sub, exp: claims.exp } };
    },
  };
}

export type EmbedSigner = ReturnType<typeof createEmbedSigner>;

/**
 * Metabase's signed embedding: a JWT (HS256) with the dashboard and its locked parameters,
 * signed with the instance's embedding secret key, at `{site}/embed/dashboard/{jwt}`.
 */
export function metabaseEmbedUrl(options: {
  siteUrl: string;
  secretKey: string;
  dashboardId: number;
  params: Record<string, unknown>;
  ttlSeconds: number;
  nowMs?: number;
}): string {
  const header = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const exp = Math.floor((options.nowMs ?? Date.now()) / 1000) + options.ttlSeconds;
  const payload = b64(
    JSON.stringify({ resource: { dashboard: options.dashboardId }, params: options.params, exp }),
  );
  const signature = b64(
    createHmac('sha256', options.secretKey).update(`${header}.${payload}`).digest(),
  );
  const site = options.siteUrl.replace(/\/$/, '');
  return `${site}/embed/dashboard/${header}.${payload}.${signature}#theme=night&bordered=false&titled=true`;
}
