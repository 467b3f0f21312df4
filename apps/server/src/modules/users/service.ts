import type { Database } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { RequestUser } from '../../platform/auth/guard.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import { createUsersRepository, type UserRow } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** User management: read a user by id or email, replace their roles. */
export function createUsersService(db: Database) {
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
    async setRoles(
      encoded: string,
      roles: readonly Role[],
      actor: RequestUser,
      origin: { ip: string | null; userAgent: string | null; requestId: string | null },
    ): Promise<UserRow> {
      const before = await find(encoded);
      const unique = [...new Set(roles)];
      const after = await users.setRoles(before.id, unique);
      if (!after) {
        throw notFound(`No user with the id '${before.id}'.`);
      }
      await recordAudit(
        db,
        {
          action: 'users.roles.update',
          outcome: 'success',
          actorId: actor.id,
          actorEmail: actor.email,
          resourceType: 'user',
          resourceId: before.id,
          statusCode: 200,
          details: { before: before.roles, after: unique },
        },
        origin,
      );
      return after;
    },
  };
}
