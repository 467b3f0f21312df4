import type { FastifyRequest } from 'fastify';
import { canAccess, type Access } from '@loopdesk/contracts/privileges.ts';
import { ROLES, type Role } from '@loopdesk/contracts/privileges.ts';
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

/** The signed-in user of a request that passed the guard; a 401 when there is none. */
export function signedInUser(request: FastifyRequest): RequestUser {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
}

/** The 401 of an access token signed before an admin changed its user's roles. */
export const ROLES_CHANGED_MESSAGE =
  'Your roles changed since this access token was issued: refresh it and try again.';

/** Whether the token's roles are the user's roles now (names no version knows are left out). */
function sameRoles(current: readonly string[], claimed: readonly string[]): boolean {
  const now = new Set(current.filter((role) => (ROLES as readonly string[]).includes(role)));
  const then = new Set(claimed);
  return now.size === then.size && [...now].every((role) => then.has(role));
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
  const roles = await sessions.activeRoles(claims.sid);
  if (!roles) {
    throw unauthorized('The session behind this access token has ended: sign in again.', {
      error: 'invalid_token',
    });
  }
  // An admin changed this user's roles after the token was signed: the portal refreshes the
  // token on a 401 and carries on with the new roles, within a request of the change.
  if (!sameRoles(roles, claims.roles)) {
    throw unauthorized(ROLES_CHANGED_MESSAGE, { error: 'invalid_token' });
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
