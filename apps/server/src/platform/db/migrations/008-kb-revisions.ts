import { sql, type Kysely } from 'kysely';

/**
 * Revisions of the clinical knowledge base written back by completed async-pipeline tasks. The
 * served knowledge base is the KB_PATH file with every revision applied in order; a revision
 * holds the change (items added or replaced, ids removed) and the task it came from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table kb_revisions (
      revision integer generated always as identity primary key,
      task_id uuid not null references async_tasks(id),
      pipeline_id integer not null,
      -- The version of the knowledge base the change was made against.
      base_version text not null,
      change jsonb not null,
      summary jsonb not null default '{}',
      created_by uuid references users(id),
      created_at timestamptz not null default now()
    );
    create index kb_revisions_task_idx on kb_revisions (task_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table kb_revisions`.execute(db);
}
