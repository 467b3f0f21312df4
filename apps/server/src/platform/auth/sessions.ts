import type { Selectable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { UsersTable } from '../db/schema.ts';
import type { Bus } from '../bus.ts';
import { hashToken, randomToken } from './tokens.ts';

export interface SessionPolicy {
  readonly idleMs: number;
  readonly absoluteMs: number;
  /**
   * A refresh token presented again within this window (two tabs at once) is refused without
   * ending the session; later, a reuse ends it.
   */
  readonly reuseGraceMs: number;
}

export type RefreshOutcome =
  | { ok: true; sessionId: string; userId: string; refreshToken: string }
  | {
      ok: false;
      reason: string;
      sessionId?: string;
      userId?: string;
      /**
       * The token was replaced a moment ago by a request of the same browser (two tabs at once):
       * the session lives on and the browser already holds the new token, so try again.
       */
      replacedJustNow?: boolean;
    };

/**
 * The in-process cache of sessions an access token is checked against, so that an authenticated
 * request does not read the database. The bus keeps every node's cache true: a revoked session
 * (logout, reuse of a refresh token, a timeout found at refresh) and a user whose roles changed
 * are dropped on every node as the message arrives; `ttlMs` bounds how long an entry is trusted
 * should a message be lost, and `maxEntries` bounds the memory (the oldest entry goes first).
 */
export interface SessionCacheOptions {
  readonly bus: Bus;
  readonly ttlMs: number;
  readonly maxEntries: number;
}

/** The user row of a session, as the users table holds it. */
export type SessionUser = Selectable<UsersTable>;

interface CachedSession {
  readonly userId: string;
  readonly user: SessionUser;
  readonly revoked: boolean;
  readonly absoluteExpiresAt: number;
  lastRefreshedAt: number;
  readonly loadedAt: number;
}

/**
 * Sign-in sessions with rotating refresh tokens, idle and absolute timeouts, and revocation.
 * With `cache`, `activeRoles` answers from memory (see SessionCacheOptions); without it, every
 * call reads the database.
 */
export function createSessionStore(
  db: Database,
  policy: SessionPolicy,
  cache?: SessionCacheOptions,
) {
  const cached = new Map<string, CachedSession>();
  // Bumped by every invalidation: a read that started before one does not fill the cache, so a
  // row read just before a logout cannot outlive the logout's message.
  let epoch = 0;
  function forgetSessions(sessionIds: readonly string[]): void {
    epoch += 1;
    for (const id of sessionIds) {
      cached.delete(id);
    }
  }
  function forgetUser(userId: string): void {
    epoch += 1;
    for (const [id, entry] of cached) {
      if (entry.userId === userId) {
        cached.delete(id);
      }
    }
  }
  const unsubscribe = cache
    ? [
        cache.bus.subscribe('sessions.revoked', ({ sessionIds }) => forgetSessions(sessionIds)),
        cache.bus.subscribe('users.roles.changed', ({ userId }) => forgetUser(userId)),
      ]
    : [];
  async function announceRevoked(sessionId: string): Promise<void> {
    forgetSessions([sessionId]);
    await cache?.bus.publish('sessions.revoked', { sessionIds: [sessionId] });
  }
  function liveUser(entry: CachedSession, now: number): SessionUser | null {
    if (entry.revoked) {
      return null;
    }
    const live = now < entry.absoluteExpiresAt && now - entry.lastRefreshedAt <= policy.idleMs;
    return live ? entry.user : null;
  }

  /**
   * The session's user as the users table holds it now, or null when the session may not be
   * used. With the cache, from memory: a live entry younger than the TTL answers; a revoked one
   * refuses; one that looks expired is read again (another node may have refreshed it since).
   */
  async function activeUser(sessionId: string): Promise<SessionUser | null> {
    const now = Date.now();
    const entry = cached.get(sessionId);
    if (entry && cache && now - entry.loadedAt < cache.ttlMs) {
      if (entry.revoked) {
        return null;
      }
      const user = liveUser(entry, now);
      if (user) {
        return user;
      }
    }
    const startedAt = epoch;
    const row = await db
      .selectFrom('auth_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('u')
      .select([
        's.revoked_at as session_revoked_at',
        's.absolute_expires_at as session_absolute_expires_at',
        's.last_refreshed_at as session_last_refreshed_at',
      ])
      .where('s.id', '=', sessionId)
      .executeTakeFirst();
    if (!row) {
      cached.delete(sessionId);
      return null;
    }
    const {
      session_revoked_at: revokedAt,
      session_absolute_expires_at: absoluteExpiresAt,
      session_last_refreshed_at: lastRefreshedAt,
      ...user
    } = row;
    const fresh: CachedSession = {
      userId: user.id,
      user,
      revoked: revokedAt !== null,
      absoluteExpiresAt: absoluteExpiresAt.getTime(),
      lastRefreshedAt: lastRefreshedAt.getTime(),
      loadedAt: Date.now(),
    };
    if (cache && startedAt === epoch) {
      cached.delete(sessionId);
      if (cached.size >= cache.maxEntries) {
        const oldest = cached.keys().next();
        if (!oldest.done) {
          cached.delete(oldest.value);
        }
      }
      cached.set(sessionId, fresh);
    }
    return liveUser(fresh, Date.now());
  }

  async function issueRefreshToken(sessionId: string): Promise<string> {
    const token = randomToken();
    await db
      .insertInto('refresh_tokens')
      .values({ token_hash: hashToken(token), session_id: sessionId })
      .execute();
    return token;
  }

  return {
    async create(input: { userId: string; ip: string | null; userAgent: string | null }) {
      const now = Date.now();
      const session = await db
        .insertInto('auth_sessions')
        .values({
          user_id: input.userId,
          last_refreshed_at: new Date(now),
          absolute_expires_at: new Date(now + policy.absoluteMs),
          ip: input.ip,
          user_agent: input.userAgent,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      return { sessionId: session.id, refreshToken: await issueRefreshToken(session.id) };
    },

    /** Exchanges a refresh token for a new one; a reused token ends the session. */
    async refresh(token: string): Promise<RefreshOutcome> {
      let revokedNow = false;
      const outcome = await db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
        const row = await trx
          .selectFrom('refresh_tokens as t')
          .innerJoin('auth_sessions as s', 's.id', 't.session_id')
          .select([
            't.token_hash',
            't.used_at',
            's.id as session_id',
            's.user_id',
            's.revoked_at',
            's.last_refreshed_at',
            's.absolute_expires_at',
          ])
          .where('t.token_hash', '=', hashToken(token))
          .forUpdate()
          .executeTakeFirst();
        if (!row) {
          return { ok: false, reason: 'The session is not valid: sign in again.' };
        }
        const ids = { sessionId: row.session_id, userId: row.user_id };
        if (row.revoked_at) {
          return { ok: false, reason: 'The session has ended: sign in again.', ...ids };
        }
        const now = Date.now();
        const revoke = async (reason: string) => {
          revokedNow = true;
          await trx
            .updateTable('auth_sessions')
            .set({ revoked_at: new Date(now), revoked_reason: reason })
            .where('id', '=', row.session_id)
            .execute();
        };
        if (now >= row.absolute_expires_at.getTime()) {
          await revoke('absolute timeout');
          return {
            ok: false,
            reason: 'The session reached its time limit: sign in again.',
            ...ids,
          };
        }
        if (now - row.last_refreshed_at.getTime() > policy.idleMs) {
          await revoke('idle timeout');
          return {
            ok: false,
            reason: 'The session ended after a period without activity: sign in again.',
            ...ids,
          };
        }
        if (row.used_at) {
          if (now - row.used_at.getTime() <= policy.reuseGraceMs) {
            // A second tab raced the first with the same cookie. The reused token buys nothing
            // (401), but the session is not ended: the browser's jar holds the new token already.
            return {
              ok: false,
              reason:
                'This refresh token was replaced a moment ago by another request of this browser: try again.',
              ...ids,
              replacedJustNow: true,
            };
          }
          await revoke('refresh token reused');
          return {
            ok: false,
            reason:
              'This refresh token was already used; the session has been ended. Sign in again.',
            ...ids,
          };
        }
        await trx
          .updateTable('refresh_tokens')
          .set({ used_at: new Date(now) })
          .where('token_hash', '=', row.token_hash)
          .execute();
        await trx
          .updateTable('auth_sessions')
          .set({ last_refreshed_at: new Date(now) })
          .where('id', '=', row.session_id)
          .execute();
        const next = randomToken();
        await trx
          .insertInto('refresh_tokens')
          .values({ token_hash: hashToken(next), session_id: row.session_id })
          .execute();
        return { ok: true, ...ids, refreshToken: next };
      });
      if (revokedNow && outcome.sessionId) {
        await announceRevoked(outcome.sessionId);
      } else if (outcome.ok) {
        // Other nodes still hold the older time: a cached entry that looks idle is read again.
        const entry = cached.get(outcome.sessionId);
        if (entry) {
          entry.lastRefreshedAt = Date.now();
        }
      }
      return outcome;
    },

    /** Whether a session may still be used with an access token. */
    async isActive(sessionId: string): Promise<boolean> {
      const row = await db
        .selectFrom('auth_sessions')
        .select(['revoked_at', 'absolute_expires_at', 'last_refreshed_at'])
        .where('id', '=', sessionId)
        .executeTakeFirst();
      if (!row || row.revoked_at) {
        return false;
      }
      const now = Date.now();
      return (
        now < row.absolute_expires_at.getTime() &&
        now - row.last_refreshed_at.getTime() <= policy.idleMs
      );
    },

    activeUser,

    /**
     * The roles the session's user holds now, or null when the session may not be used; an
     * access token's roles are checked against it on every request (guard.ts).
     */
    async activeRoles(sessionId: string): Promise<string[] | null> {
      return (await activeUser(sessionId))?.roles ?? null;
    },

    /** Ends a session, on every node at once (the bus drops it from their caches). */
    async revoke(sessionId: string, reason: string): Promise<void> {
      await db
        .updateTable('auth_sessions')
        .set({ revoked_at: new Date(), revoked_reason: reason })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
      await announceRevoked(sessionId);
    },

    /** Drops a user's sessions from this node's cache (their roles changed a moment ago). */
    forgetUser,

    /** How many sessions this node holds in memory (for tests and diagnostics). */
    cachedCount(): number {
      return cached.size;
    },

    /** Stops listening to the bus. */
    close(): void {
      for (const stop of unsubscribe) {
        stop();
      }
      cached.clear();
    },

    /** The session a refresh token belongs to, used or not (for logout). */
    async sessionOf(token: string): Promise<{ sessionId: string; userId: string } | undefined> {
      const row = await db
        .selectFrom('refresh_tokens as t')
        .innerJoin('auth_sessions as s', 's.id', 't.session_id')
        .select(['s.id as sessionId', 's.user_id as userId'])
        .where('t.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      return row;
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
