import type { Database } from '../../platform/db/database.ts';
import type { Bus } from '../../platform/bus.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { UsersListQuery, UsersListResponse } from '@loopdesk/contracts/users.ts';
import { createUsersRepository, toUserListItem, type UserRow } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The 409 of a change that would leave nobody holding the admin role. */
export const LAST_ADMINISTRATOR_MESSAGE =
  'This is the last administrator: give another user the admin role first, then remove it here.';

type Origin = { ip: string | null; userAgent: string | null; requestId: string | null };

/** Decodes the `{base64 of user id}` path segment (standard or URL-safe base64). */
export function decodeUserKey(encoded: string): string {
  const normalised = encoded.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(normalised)) {
    throw badRequest('The user key must be the base64 of a user id or email.', [
      { path: 'params.userId', message: 'is not base64' },
    ]);
  }
  return Buffer.from(normalised, 'base64').toString('utf8').trim();
}

/** User management: list users, read a user by id or email, replace their roles. */
export function createUsersService(db: Database, bus: Bus) {
  const users = createUsersRepository(db);

  async function find(encoded: string): Promise<UserRow> {
    const key = decodeUserKey(encoded);
    const row = UUID.test(key) ? await users.findById(key) : await users.findByEmail(key);
    if (!row) {
      throw notFound(`No user with the id or email '${key}'.`);
    }
    return row;
  }

  return {
    find,

    async list(query: UsersListQuery): Promise<UsersListResponse> {
      const { rows, total } = await users.list(query.q, query.p * query.s, query.s);
      return { items: rows.map(toUserListItem), total, page: query.p, size: query.s };
    },

    /**
     * Replaces a user's roles, audited with the roles before and after. Removing the admin role
     * from the last user holding it is refused (409, audited). Once committed, every node hears of
     * it on the bus, so the user's open sockets lose what they may no longer use; their next
     * request with an older access token is answered 401 and the portal refreshes it (guard.ts).
     */
    async setRoles(
      encoded: string,
      roles: readonly Role[],
      actor: RequestUser,
      origin: Origin,
    ): Promise<UserRow> {
      const target = await find(encoded);
      const unique = [...new Set(roles)];
      const audit = (outcome: 'success' | 'denied', statusCode: number, before: string[]) =>
        ({
          action: 'users.roles.update',
          outcome,
          actorId: actor.id,
          actorEmail: actor.email,
          resourceType: 'user',
          resourceId: target.id,
          statusCode,
          details: { before, after: outcome === 'success' ? unique : before, asked: unique },
        }) as const;
      const result = await db.transaction().execute(async (trx) => {
        // Lock the administrators first (always in the same order), then the user.
        const admins = await users.lockAdministrators(trx);
        const before = await users.findForUpdate(target.id, trx);
        if (!before) {
          throw notFound(`No user with the id '${target.id}'.`);
        }
        const losesAdmin = before.roles.includes('admin') && !unique.includes('admin');
        if (losesAdmin && admins.every((id) => id === before.id)) {
          return { refused: before, after: undefined };
        }
        const after = await users.setRoles(before.id, unique, trx);
        if (!after) {
          throw notFound(`No user with the id '${before.id}'.`);
        }
        await recordAudit(trx, audit('success', 200, before.roles), origin);
        return { refused: undefined, after };
      });
      if (!result.after) {
        await recordAudit(db, audit('denied', 409, result.refused.roles), origin);
        throw conflict(LAST_ADMINISTRATOR_MESSAGE);
      }
      await bus.publish('users.roles.changed', { userId: result.after.id, roles: unique });
      return result.after;
    },
  };
}
