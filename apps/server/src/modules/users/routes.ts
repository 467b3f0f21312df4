import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Bus } from '../../platform/bus.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { unauthorized } from '../../platform/errors.ts';
import { createUsersRepository, toManagedUser, toMe } from './repository.ts';
import { createUsersService } from './service.ts';

/** The signed-in user, and user management's list, read and role update. */
export function registerUsersRoutes(
  api: ApiRouter,
  db: Database,
  bus: Bus,
  sessions?: SessionStore,
): void {
  const users = createUsersRepository(db);
  const service = createUsersService(db, bus);

  api.route('GET /internal/users/me', async (request) => {
    // The session's user row as the guard just found it (from memory, see auth/sessions.ts).
    const row = request.user
      ? ((await sessions?.activeUser(request.user.sessionId)) ??
        (await users.findById(request.user.id)))
      : undefined;
    if (!row) {
      throw unauthorized('The account behind this access token no longer exists.');
    }
    return toMe(row);
  });

  api.route('GET /internal/users', async (request) => service.list(request.query));

  api.route('GET /internal/users/:userId', async (request) =>
    toManagedUser(await service.find(request.params.userId)),
  );

  api.route('PATCH /internal/users/:userId', async (request) => {
    const { userId } = request.params;
    const { body } = request;
    if (!request.user) {
      throw unauthorized('Sign in first.');
    }
    return toManagedUser(
      await service.setRoles(userId, body.permissions.roles, request.user, requestOrigin(request)),
    );
  });
}
