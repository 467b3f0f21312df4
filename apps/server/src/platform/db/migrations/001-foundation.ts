import { sql, type Kysely } from 'kysely';

/** Users, sign-in sessions with rotating refresh tokens, OIDC transactions and the audit trail. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null unique,
      display_name text,
      photo_url text,
      roles text[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_sign_in_at timestamptz
    );

    create table auth_sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      last_refreshed_at timestamptz not null,
      absolute_expires_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text,
      ip text,
      user_agent text
    );
    create index auth_sessions_user_idx on auth_sessions (user_id);

    create table refresh_tokens (
      token_hash text primary key,
      session_id uuid not null references auth_sessions(id) on delete cascade,
      issued_at timestamptz not null default now(),
      used_at timestamptz
    );
    create index refresh_tokens_session_idx on refresh_tokens (session_id);

    create table auth_transactions (
      id text primary key,
      state text not null,
      nonce text not null,
      code_verifier text not null,
      created_at timestamptz not null default now()
    );

    create table audit_events (
      id bigint generated always as identity primary key,
      occurred_at timestamptz not null default now(),
      actor_id uuid,
      actor_email text,
      action text not null,
      resource_type text,
      resource_id text,
      outcome text not null check (outcome in ('success', 'denied', 'failure')),
      status_code integer,
      ip text,
      user_agent text,
      request_id text,
      details jsonb not null default '{}'::jsonb
    );
    create index audit_events_actor_idx on audit_events (actor_id, occurred_at);
    create index audit_events_resource_idx on audit_events (resource_type, resource_id);

    -- The audit trail is append-only: no update, delete or truncate, whoever asks.
    create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % is not allowed', tg_op
        using errcode = 'insufficient_privilege';
    end;
    $$;
    create trigger audit_events_no_update_delete before update or delete on audit_events
      for each row execute function audit_events_append_only();
    create trigger audit_events_no_truncate before truncate on audit_events
      for each statement execute function audit_events_append_only();
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error('001-foundation cannot be rolled back: the audit trail is kept forever.'),
  );
}
