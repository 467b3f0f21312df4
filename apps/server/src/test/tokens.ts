import type { Role } from '@loopdesk/contracts/privileges.ts';
import { createSessionStore } from '../platform/auth/sessions.ts';
import { createTokenService } from '../platform/auth/tokens.ts';
import { createUsersRepository } from '../modules/users/repository.ts';
import type { Database } from '../platform/db/database.ts';

/** Where a test signs in: a test app, or the database and secret of server processes. */
export interface SignInSource {
  readonly database: { readonly db: Database };
  readonly config: {
    readonly sessionSecret: string;
    readonly env: { readonly ACCESS_TOKEN_TTL_SECONDS: number };
  };
}

/** Creates a user with these roles and a real session, and signs an access token for it. */
export async function tokenForRoles(
  t: SignInSource,
  email: string,
  roles: readonly Role[],
): Promise<{ token: string; userId: string; sessionId: string }> {
  const users = createUsersRepository(t.database.db);
  const row = await users.upsertOnSignIn({
    email,
    displayName: email,
    photoUrl: null,
    initialRoles: [...roles],
  });
  const sessions = createSessionStore(t.database.db, {
    idleMs: 30 * 60_000,
    absoluteMs: 12 * 3_600_000,
    reuseGraceMs: 10_000,
  });
  const { sessionId } = await sessions.create({
    userId: row.id,
    ip: '127.0.0.1',
    userAgent: 'test',
  });
  const tokens = createTokenService(t.config.sessionSecret, t.config.env.ACCESS_TOKEN_TTL_SECONDS);
  const token = await tokens.sign({ sub: row.id, sid: sessionId, email, roles: [...roles] });
  return { token, userId: row.id, sessionId };
}
