import { sql, type Kysely } from 'kysely';

/**
 * Data preparation of guideline documents (issue 12): one row per document with its job (spec 2
 * §3) and who prepared and reviewed it (four eyes, docs/data-preparation.md), and the stored
 * files themselves when the document store is PostgreSQL (the default: every node sees them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_preparation_documents (
      key text primary key,
      code text not null unique,
      status text not null,
      job jsonb not null,
      file_name text not null,
      content_type text not null,
      byte_size bigint not null,
      page_count integer not null,
      text_layer boolean not null,
      extracted_text text not null,
      origin text not null,
      demo boolean not null default false,
      registered_by text,
      prepared_by text,
      prepared_at timestamptz,
      reviewed_by text,
      reviewed_at timestamptz,
      lease_holder text,
      lease_expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`
    create index data_preparation_documents_status_idx
    on data_preparation_documents (status, created_at)
  `.execute(db);
  await sql`
    create table document_files (
      name text primary key,
      content_type text not null,
      byte_size bigint not null,
      bytes bytea not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table document_files`.execute(db);
  await sql`drop table data_preparation_documents`.execute(db);
}
