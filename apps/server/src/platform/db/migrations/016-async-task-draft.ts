import { sql, type Kysely } from 'kysely';

/**
 * The holder's unsaved edits of an async task (issue 20 point 17): kept on the task so that
 * reopening it, after a reload or on another device, restores them. Cleared when the task is
 * submitted, discarded, released or taken by someone else.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table async_tasks add column draft jsonb`.execute(db);
  await sql`
    create index async_tasks_holder_idx on async_tasks (lock_holder)
    where lock_holder is not null and completed_at is null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index async_tasks_holder_idx`.execute(db);
  await sql`alter table async_tasks drop column draft`.execute(db);
}
