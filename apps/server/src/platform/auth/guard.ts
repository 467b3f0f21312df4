import type { FastifyRequest } from 'fastify';
import { canAccess, type Access } from '@loopdesk/contracts/privileges.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { SessionStore } from './sessions.ts';
import type { TokenService } from './tokens.ts';

/** The signed-in user of a request, from a verified access token. */
export interface RequestUser {
  readonly id: string;
  readonly email: string;
  readonly roles: readonly Role[];
  readonly sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

/** Verifies the bearer token and the session behind it; throws a 401 saying what is wrong. */
export async function authenticate(
  request: FastifyRequest,
  tokens: TokenService,
  sessions: SessionStore,
): Promise<RequestUser> {
  const header = request.headers.authorization;
  if (!header) {
    throw unauthorized(
      'Sign in first: this request needs an access token (Authorization: Bearer <token>).',
    );
  }
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) {
    throw unauthorized('The Authorization header must be "Bearer <access token>".', {
      error: 'invalid_request',
    });
  }
  const user = await verifyAccessToken(match[1], tokens, sessions);
  request.user = user;
  return user;
}

/** Verifies an access token and that its session is active; throws a 401 saying what is wrong. */
export async function verifyAccessToken(
  token: string,
  tokens: TokenService,
  sessions: SessionStore,
): Promise<RequestUser> {
  const verified = await tokens.verify(token);
  if ('reason' in verified) {
    throw unauthorized(verified.reason, { error: 'invalid_token' });
  }
  const { claims } = verified;
  if (!(await sessions.isActive(claims.sid))) {
    throw unauthorized('The session behind this access token has ended: sign in again.', {
      error: 'invalid_token',
    });
  }
  return { id: claims.sub, email: claims.email, roles: claims.roles, sessionId: claims.sid };
}

/** Throws a 403 naming the privilege needed when the user's roles do not grant the access. */
export function authorize(user: RequestUser, access: Access): void {
  if (!canAccess(user.roles, access)) {
    const needed =
      access.anyOf.length === 1
        ? `the privilege ${access.anyOf[0]}`
        : `one of the privileges ${access.anyOf.join(', ')}`;
    throw forbidden(
      `You do not have access to this: it needs ${needed}. Ask an administrator for the matching role.`,
      { error: 'insufficient_scope', scope: access.anyOf },
    );
  }
}
