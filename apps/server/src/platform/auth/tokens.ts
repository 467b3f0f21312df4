import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { AccessTokenClaims } from '@loopdesk/contracts/users.ts';

const ISSUER = 'loopdesk';
const AUDIENCE = 'loopdesk-portal';

/** How many verified access tokens a node remembers (about 300 bytes each). */
export const VERIFIED_TOKENS_MAX = 10_000;

interface VerifiedToken {
  readonly claims: AccessTokenClaims;
  /** The token's `exp`, in seconds since the epoch, as JOSE compares it. */
  readonly exp: number;
}

/**
 * Signs and verifies Loopdesk access tokens (HS256 JWT with the roles claim).
 *
 * A token verified once is remembered, keyed by the whole token (never by a part of it: a forged
 * payload under a copied signature must not match), until its `exp` and within a bound
 * (`maxVerified`, the oldest goes first): the portal sends the same token with every request of
 * its lifetime, and JOSE's verification (an HMAC through WebCrypto, the key imported each time)
 * was the largest cost of an authenticated request (bench/http.ts). Only what the signature
 * proves is remembered; whether the session may still be used is asked on every request
 * (guard.ts), so a logout or a role change refuses a remembered token at once.
 */
export function createTokenService(
  secret: string,
  ttlSeconds: number,
  maxVerified = VERIFIED_TOKENS_MAX,
) {
  const key = createHash('sha256').update(`loopdesk-access-token:${secret}`).digest();
  const verified = new Map<string, VerifiedToken>();
  function remember(token: string, claims: AccessTokenClaims, exp: unknown): void {
    if (typeof exp !== 'number' || maxVerified <= 0) {
      return;
    }
    if (verified.size >= maxVerified) {
      const oldest = verified.keys().next();
      if (!oldest.done) {
        verified.delete(oldest.value);
      }
    }
    verified.set(token, { claims, exp });
  }
  return {
    ttlSeconds,
    async sign(claims: AccessTokenClaims): Promise<string> {
      return new SignJWT({ sid: claims.sid, email: claims.email, roles: claims.roles })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    /** Returns the claims, or a reason the token is refused. */
    async verify(token: string): Promise<{ claims: AccessTokenClaims } | { reason: string }> {
      const known = verified.get(token);
      if (known) {
        // JOSE's own rule: expired once `exp` is not after the current second.
        if (Math.floor(Date.now() / 1000) < known.exp) {
          return { claims: known.claims };
        }
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
        });
        const parsed = AccessTokenClaims.safeParse(payload);
        if (!parsed.success) {
          return { reason: 'The access token is missing claims.' };
        }
        // Shared by every request with this token: nobody may change it.
        const claims = Object.freeze({ ...parsed.data, roles: Object.freeze(parsed.data.roles) });
        remember(token, claims as AccessTokenClaims, payload.exp);
        return { claims: claims as AccessTokenClaims };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) {
          return { reason: 'The access token has expired: refresh it and try again.' };
        }
        if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
          return { reason: 'The access token signature is invalid.' };
        }
        return { reason: 'The access token is malformed or invalid.' };
      }
    },
    /** How many verified tokens this node remembers (for tests and diagnostics). */
    verifiedCount(): number {
      return verified.size;
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

/** A new opaque secret (refresh tokens, OIDC state and nonce). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How a refresh token is stored: only its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
