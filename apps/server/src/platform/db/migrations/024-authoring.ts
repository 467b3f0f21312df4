import { sql, type Kysely } from 'kysely';

/**
 * Authoring tasks (issue 13, docs/authoring.md): each document's annotation version (optimistic
 * concurrency of saves), who wrote its annotations (four eyes: never its reviewer), the purpose
 * of its hold (the lease columns of migration 018 serve annotation and review too), and who
 * reviewed the annotations. Knowledge-base revisions may now come from a document's approved
 * annotations instead of an async task: `document_key` is their provenance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table data_preparation_documents
      add column annotation_version integer not null default 0,
      add column annotators jsonb not null default '[]',
      add column annotated_by text,
      add column annotated_at timestamptz,
      add column annotation_reviewed_by text,
      add column annotation_reviewed_at timestamptz,
      add column hold_purpose text
  `.execute(db);
  await sql`
    alter table kb_revisions
      alter column task_id drop not null,
      alter column pipeline_id drop not null,
      add column document_key text references data_preparation_documents(key)
  `.execute(db);
  await sql`
    alter table kb_revisions add constraint kb_revisions_provenance_check
      check (task_id is not null or document_key is not null)
  `.execute(db);
  await sql`create index kb_revisions_document_idx on kb_revisions (document_key)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index kb_revisions_document_idx`.execute(db);
  await sql`alter table kb_revisions drop constraint kb_revisions_provenance_check`.execute(db);
  await sql`alter table kb_revisions drop column document_key`.execute(db);
  await sql`
    alter table data_preparation_documents
      drop column annotation_version,
      drop column annotators,
      drop column annotated_by,
      drop column annotated_at,
      drop column annotation_reviewed_by,
      drop column annotation_reviewed_at,
      drop column hold_purpose
  `.execute(db);
}
