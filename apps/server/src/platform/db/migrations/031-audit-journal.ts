import { sql, type Kysely } from 'kysely';

/**
 * Issue 18 #7: each node's audit journal (platform/audit-journal.ts) moves its entries into
 * `audit_events` a segment at a time; the same transaction moves the journal's mark here (the last
 * segment whose entries are in the table), so that a replay after a crash between the insert and
 * the segment's deletion inserts nothing twice. One row per journal folder. Stands on its own:
 * it needs no other migration past 001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table audit_journal_marks (
      journal_id uuid primary key,
      segment bigint not null,
      flushed_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table audit_journal_marks`.execute(db);
}
