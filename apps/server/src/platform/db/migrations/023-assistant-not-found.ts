import { sql, type Kysely } from 'kysely';

/**
 * Why the assistant could not answer a portal question (issue 18 point 4): `not_found` when it
 * does not know the conversation or the intent asked about, so the portal's caller gets a 404
 * rather than a 502. Null for any other failure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assistant_requests add column error_reason text
      check (error_reason in ('not_found'))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table assistant_requests drop column error_reason`.execute(db);
}
