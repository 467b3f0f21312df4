import { sql, type Kysely } from 'kysely';

/**
 * A job's attempts before it is dead-lettered come from JOB_MAX_ATTEMPTS unless the job names its
 * own: `max_attempts` null means "the configured number", read when the job is handed back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table jobs alter column max_attempts drop not null;
    alter table jobs alter column max_attempts drop default;
    alter table jobs add constraint jobs_max_attempts_positive check (max_attempts > 0);
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(new Error('010-job-max-attempts cannot be rolled back.'));
}
