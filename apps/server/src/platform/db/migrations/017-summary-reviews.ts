import { sql, type Kysely } from 'kysely';

/**
 * Clinical summary review (issue 12): the note a reviewer edits and sends, beside the summary job
 * the assistant sent (which keeps the assistant's note unchanged in its payload). One row per job:
 * the latest saved version, who saved it, and once sent, who sent it and when. The conversations
 * area reads the latest sent note of a conversation (tenant, conversation, sent_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table summary_reviews (
      job_id uuid primary key references jobs(id),
      tenant text not null,
      conversation_id text not null,
      document jsonb not null,
      source_name text not null,
      source_version text not null,
      saved_by uuid not null references users(id),
      saved_at timestamptz not null default now(),
      sent_by uuid references users(id),
      sent_at timestamptz
    );
    create index summary_reviews_sent_idx
      on summary_reviews (tenant, conversation_id, sent_at desc) where sent_at is not null;
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error('017-summary-reviews cannot be rolled back: it holds the notes reviewers wrote.'),
  );
}
