import fp from 'fastify-plugin';
import { DEMO_ACCOUNTS } from './demo-accounts.ts';
import { createUsersRepository, type UsersRepository } from './repository.ts';
import { registerUsersRoutes } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The users table: sign-in creates and reads users through it. */
    users: UsersRepository;
  }
}

/**
 * Users: the signed-in user and user management (`/internal/users/...`). With the development
 * sign-in, the demo accounts (one per role) exist from the start with their roles, whatever
 * `DEMO` says (it only starts the demo assistant and its data): the development provider offers
 * exactly those accounts, and without their roles the portal would show nothing but 'No access yet'.
 */
export default fp(
  async (app) => {
    const { config, db } = app;
    const users = createUsersRepository(db);
    if (config.devSignIn) {
      await users.ensureAccounts(DEMO_ACCOUNTS);
    }
    registerUsersRoutes(app.api, db, app.bus, app.sessions);
    app.decorate('users', users);
  },
  { name: 'users', dependencies: ['platform'] },
);
