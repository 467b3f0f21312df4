import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { DB, UsersTable } from '../../platform/db/schema.ts';
import type { ManagedUser, Me, UserListItem } from '@loopdesk/contracts/users.ts';
import { Role } from '@loopdesk/contracts/privileges.ts';

export type UserRow = Selectable<UsersTable>;

/** The pool, or a transaction of the caller's. */
type Executor = Database | Transaction<DB>;

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
    setRoles(
      id: string,
      roles: readonly string[],
      executor: Executor = db,
    ): Promise<UserRow | undefined> {
      return executor
        .updateTable('users')
        .set({ roles: [...roles], updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    /**
     * Locks every administrator's row (in the caller's transaction) and returns their ids, so two
     * admins removing each other's role one at a time cannot leave nobody holding it.
     */
    async lockAdministrators(executor: Executor): Promise<string[]> {
      const rows = await executor
        .selectFrom('users')
        .select('id')
        .where(sql<boolean>`'admin' = any(roles)`)
        .orderBy('id')
        .forUpdate()
        .execute();
      return rows.map((row) => row.id);
    },
    /** Locks one user's row and reads it (in the caller's transaction). */
    findForUpdate(id: string, executor: Executor): Promise<UserRow | undefined> {
      return executor
        .selectFrom('users')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
    },
    /** A page of users ordered by email; `search` matches part of an email or name, or an id. */
    async list(search: string | undefined, offset: number, limit: number) {
      const term = search?.trim() ? search.trim() : undefined;
      const filtered = () => {
        const base = db.selectFrom('users');
        if (!term) {
          return base;
        }
        const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return base.where((eb) =>
          eb.or([
            eb('email', 'ilike', like),
            eb('display_name', 'ilike', like),
            eb(sql<string>`id::text`, '=', term.toLowerCase()),
          ]),
        );
      };
      const [rows, count] = await Promise.all([
        filtered().selectAll().orderBy('email').offset(offset).limit(limit).execute(),
        filtered()
          .select(sql<string>`count(*)::text`.as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
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
    /**
     * Creates accounts that do not exist yet; existing ones keep their roles, unless they have
     * none (an account first signed in to with `DEMO=0` before its roles were seeded then).
     */
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
          .onConflict((oc) =>
            oc
              .column('email')
              .doUpdateSet({ roles: [...account.roles], updated_at: new Date() })
              .where(sql<boolean>`cardinality(users.roles) = 0`),
          )
          .execute();
      }
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

/** A row of the users list. */
export function toUserListItem(row: UserRow): UserListItem {
  return {
    ...toManagedUser(row),
    lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.toISOString() : null,
  };
}

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
