import type { AccessTokenResponse } from '@loopdesk/contracts/users.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { TokenService } from '../../platform/auth/tokens.ts';
import type { Database } from '../../platform/db/database.ts';
import { toMe, type UsersRepository } from '../users/repository.ts';
import type { SignInIdentity } from './oidc-client.ts';

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

/** What a refresh comes to; the routes turn it into cookies and a reply. */
export type RefreshResult =
  /** Refused, but the browser already holds the token that replaced this one: keep the cookie. */
  | { kind: 'retry'; reason: string }
  /** Refused: the cookie goes. */
  | { kind: 'refused'; reason: string }
  | { kind: 'refreshed'; refreshToken: string; body: AccessTokenResponse };

/**
 * Sign-in's rules and records: who may sign in, the user and session a sign-in creates, refresh
 * and logout, each in the audit trail. The routes keep the cookies and pages.
 */
export function createSignInService(deps: {
  db: Database;
  users: UsersRepository;
  sessions: SessionStore;
  tokens: TokenService;
  allowedDomains: readonly string[];
  adminEmails: readonly string[];
}) {
  const { db, users, sessions, tokens, allowedDomains } = deps;
  return {
    /** Why the policy refuses this identity, or null when it may sign in. */
    problemWith(identity: SignInIdentity): string | null {
      if (!identity.emailVerified) {
        return `Sign-in refused: the identity provider has not verified ${identity.email}.`;
      }
      if (allowedDomains.length > 0) {
        const domain = identity.hostedDomain ?? identity.email.split('@')[1] ?? '';
        const emailDomain = identity.email.split('@')[1] ?? '';
        if (!allowedDomains.includes(domain) || !allowedDomains.includes(emailDomain)) {
          return `Sign-in refused: ${identity.email} is not in an allowed domain (${allowedDomains.join(', ')}). Use your company account.`;
        }
      }
      return null;
    },

    /** A refused sign-in, in the audit trail. */
    async refused(message: string, email: string | undefined, origin: Origin): Promise<void> {
      await recordAudit(
        db,
        {
          action: 'auth.sign-in',
          outcome: 'denied',
          actorEmail: email ?? null,
          statusCode: 401,
          details: { reason: message },
        },
        origin,
      );
    },

    /**
     * Creates the user at their first sign-in (admin when ADMIN_EMAILS names them) or refreshes
     * their name and photo, and opens a session; returns its first refresh token.
     */
    async signIn(identity: SignInIdentity, origin: Origin): Promise<{ refreshToken: string }> {
      const user = await users.upsertOnSignIn({
        email: identity.email,
        displayName: identity.displayName,
        photoUrl: identity.photoUrl,
        initialRoles: deps.adminEmails.includes(identity.email) ? ['admin'] : [],
      });
      const { sessionId, refreshToken } = await sessions.create({
        userId: user.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      await recordAudit(
        db,
        {
          action: 'auth.sign-in',
          outcome: 'success',
          actorId: user.id,
          actorEmail: user.email,
          resourceType: 'session',
          resourceId: sessionId,
          statusCode: 200,
        },
        origin,
      );
      return { refreshToken };
    },

    /** Rotates the refresh token and signs a new access token for the session's user. */
    async refresh(token: string): Promise<RefreshResult> {
      const outcome = await sessions.refresh(token);
      if (!outcome.ok && outcome.replacedJustNow) {
        return { kind: 'retry', reason: outcome.reason };
      }
      const user = outcome.ok ? await users.findById(outcome.userId) : undefined;
      if (!outcome.ok || !user) {
        const reason = outcome.ok ? 'The account no longer exists.' : outcome.reason;
        return { kind: 'refused', reason };
      }
      const me = toMe(user);
      const accessToken = await tokens.sign({
        sub: me.id,
        sid: outcome.sessionId,
        email: me.email,
        roles: me.permissions.roles,
      });
      return {
        kind: 'refreshed',
        refreshToken: outcome.refreshToken,
        body: { accessToken, expiresIn: tokens.ttlSeconds, user: me },
      };
    },

    /** Ends the session of a refresh token, if it still has one. */
    async logout(token: string | undefined, origin: Origin): Promise<void> {
      const session = token ? await sessions.sessionOf(token) : undefined;
      if (!session) {
        return;
      }
      await sessions.revoke(session.sessionId, 'logout');
      await recordAudit(
        db,
        {
          action: 'auth.sign-out',
          outcome: 'success',
          actorId: session.userId,
          resourceType: 'session',
          resourceId: session.sessionId,
          statusCode: 204,
        },
        origin,
      );
    },
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
