import { sql, type Kysely } from 'kysely';

/**
 * The portal's questions to the assistant (issue 4: intent context menus, conversation memory and
 * the message operations). A row is written when the portal asks, read by the assistant through
 * `GET /api/v1/requests`, and closed by its answer; the portal's request waits for that answer.
 * Answered context menus double as a short-lived cache per tenant and intent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table assistant_requests (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in (
        'intent.context_menu', 'conversation.memory',
        'message.intents', 'message.next', 'message.redirect')),
      tenant text not null,
      -- What the cache looks answers up by: the intent of a context menu; null for the others.
      cache_key text,
      body jsonb not null,
      state text not null default 'pending'
        check (state in ('pending', 'answered', 'failed', 'expired')),
      answer jsonb,
      error text,
      requested_by uuid references users(id) on delete set null,
      -- Handed to an assistant's poll at this time; handed out again if still unanswered later.
      claimed_at timestamptz,
      answered_by text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      answered_at timestamptz
    );
    create index assistant_requests_pending_idx on assistant_requests (created_at)
      where state = 'pending';
    create index assistant_requests_cache_idx on assistant_requests (kind, tenant, cache_key, answered_at)
      where state = 'answered';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table assistant_requests`.execute(db);
}
