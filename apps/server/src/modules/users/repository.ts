import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { UsersTable } from '../../platform/db/schema.ts';
import type { ManagedUser, Me } from '@loopdesk/contracts/users.ts';
import { Role } from '@loopdesk/contracts/privileges.ts';

export type UserRow = Selectable<UsersTable>;

/** The user as the portal sees it. Unknown role names in the database are left out. */
export function toMe(row: UserRow): Me {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    photoURL: row.photo_url,
    permissions: { roles: row.roles.filter((r): r is Role => Role.safeParse(r).success) },
  };
}

/** SQL over the users table. */
export function createUsersRepository(db: Database) {
  return {
    findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
    },
    /** Replaces a user's roles. */
    setRoles(id: string, roles: readonly string[]): Promise<UserRow | undefined> {
      return db
        .updateTable('users')
        .set({ roles: [...roles], updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    /** Creates the user on first sign-in (with `initialRoles`), or refreshes name and photo. */
    upsertOnSignIn(input: {
      email: string;
      displayName: string | null;
      photoUrl: string | null;
      initialRoles: string[];
    }): Promise<UserRow> {
      const now = new Date();
      return db
        .insertInto('users')
        .values({
          email: input.email.toLowerCase(),
          display_name: input.displayName,
          photo_url: input.photoUrl,
          roles: input.initialRoles,
          last_sign_in_at: now,
        })
        .onConflict((oc) =>
          oc.column('email').doUpdateSet({
            display_name: input.displayName,
            photo_url: input.photoUrl,
            last_sign_in_at: now,
            updated_at: now,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    /** Creates accounts that do not exist yet; existing ones keep their roles. */
    async ensureAccounts(
      accounts: readonly { email: string; displayName: string; roles: readonly string[] }[],
    ) {
      for (const account of accounts) {
        await db
          .insertInto('users')
          .values({
            email: account.email,
            display_name: account.displayName,
            photo_url: null,
            roles: [...account.roles],
          })
          .onConflict((oc) => oc.column('email').doNothing())
          .execute();
      }
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

/** A user as user management sees it (spec 3 §3). */
export function toManagedUser(row: UserRow): ManagedUser {
  const me = toMe(row);
  return {
    uid: me.id,
    email: me.email,
    displayName: me.displayName,
    photoUrl: me.photoURL,
    customClaims: { roles: me.permissions.roles },
  };
}
