import { sql, type Kysely } from 'kysely';

/**
 * Why a job's last attempt ended without a submission (the lease ran out, the technician left):
 * what admins read in the dead-letter list (`GET /internal/jobs/_dead`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs add column last_error text`.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(new Error('013-job-last-error cannot be rolled back.'));
}
