import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { AuthTransactionsTable } from '../../platform/db/schema.ts';

export type SignInTransactionRow = Selectable<AuthTransactionsTable>;

/** SQL over `auth_transactions`: the state, nonce and PKCE verifier of sign-ins under way. */
export function createSignInRepository(db: Database) {
  return {
    /** Forgets the sign-ins started before `before` (never completed). */
    async deleteStartedBefore(before: Date): Promise<void> {
      await db.deleteFrom('auth_transactions').where('created_at', '<', before).execute();
    },
    async insert(row: { id: string; state: string; nonce: string; codeVerifier: string }) {
      await db
        .insertInto('auth_transactions')
        .values({ id: row.id, state: row.state, nonce: row.nonce, code_verifier: row.codeVerifier })
        .execute();
    },
    /** Removes and returns a sign-in under way: each one completes at most once. */
    take(id: string): Promise<SignInTransactionRow | undefined> {
      return db
        .deleteFrom('auth_transactions')
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
  };
}

export type SignInRepository = ReturnType<typeof createSignInRepository>;
