import type { Role } from '@loopdesk/contracts/privileges.ts';
import { createSessionStore } from '../platform/auth/sessions.ts';
import { createTokenService } from '../platform/auth/tokens.ts';
import { createUsersRepository } from '../modules/users/repository.ts';
import type { Database } from '../platform/db/database.ts';
import type { TestApp } from './harness.ts';

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
  // An existing user gets these roles too: the guard refuses a token whose roles are not the
  // user's roles now (an admin changed them).
  await users.setRoles(row.id, [...roles]);
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

/** Creates an API key through the admins' route, as the assistant's operator would; returns it. */
export async function apiKeyFor(t: TestApp, name = 'assistant-test'): Promise<string> {
  const admin = (await tokenForRoles(t, `admin-of-${name}@example.test`, ['admin'])).token;
  const created = await t.app.inject({
    method: 'POST',
    url: '/internal/integration/api-keys',
    headers: { authorization: `Bearer ${admin}` },
    payload: { name },
  });
  if (created.statusCode !== 201) {
    throw new Error(`API key not created: ${created.statusCode} ${created.body}`);
  }
  return created.json<{ key: string }>().key;
}
