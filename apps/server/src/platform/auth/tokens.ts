import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { AccessTokenClaims } from '@loopdesk/contracts/users.ts';

const ISSUER = 'loopdesk';
const AUDIENCE = 'loopdesk-portal';

/** Signs and verifies Loopdesk access tokens (HS256 JWT with the roles claim). */
export function createTokenService(secret: string, ttlSeconds: number) {
  const key = createHash('sha256').update(`loopdesk-access-token:${secret}`).digest();
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
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
        });
        const parsed = AccessTokenClaims.safeParse(payload);
        return parsed.success
          ? { claims: parsed.data }
          : { reason: 'The access token is missing claims.' };
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
