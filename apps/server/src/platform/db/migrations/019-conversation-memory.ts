import { sql, type Kysely } from 'kysely';

/**
 * Conversation memory and search (issue 14): each conversation's memory graph — the patient,
 * findings with presence and onset, conditions considered, answers, handovers and the knowledge
 * base's relations between them — kept as rows, projected from the transcript, the completed jobs
 * of the conversation and the assistant's memory answers; and the indexes that let staff find a
 * conversation among 100,000 by patient name, date, status, finding or condition.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table conversation_memory_vertices (
      conversation_id text not null references conversations(id) on delete cascade,
      id text not null,
      kind text not null check (kind in ('patient', 'finding', 'condition', 'answer', 'handover')),
      label text not null,
      concept_id text,
      presence text check (presence in ('endorse', 'deny', 'unsure')),
      onset text,
      -- Who put it there: the patient's words, the assistant, a technician, a reviewer, or the
      -- knowledge base (conditions considered by the differential, relations).
      source text not null check (source in ('patient', 'assistant', 'technician', 'reviewer', 'knowledge')),
      data jsonb not null default '{}',
      seq bigserial,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (conversation_id, id)
    );
    -- Search by finding or condition: by concept id, or by its name as shown.
    create index conversation_memory_concept_idx on conversation_memory_vertices (concept_id, conversation_id)
      where kind in ('finding', 'condition') and (presence is null or presence <> 'deny');
    create index conversation_memory_label_idx on conversation_memory_vertices (lower(label), conversation_id)
      where kind in ('finding', 'condition') and (presence is null or presence <> 'deny');

    create table conversation_memory_edges (
      conversation_id text not null,
      id text not null,
      from_id text not null,
      to_id text not null,
      rel text not null,
      source text not null,
      data jsonb not null default '{}',
      created_at timestamptz not null default now(),
      primary key (conversation_id, id),
      foreign key (conversation_id, from_id) references conversation_memory_vertices (conversation_id, id) on delete cascade,
      foreign key (conversation_id, to_id) references conversation_memory_vertices (conversation_id, id) on delete cascade
    );

    -- How far the projection has read: the transcript up to a position; jobs and assistant
    -- answers are remembered one by one (conversation_memory_applied), as they commit in any order.
    create table conversation_memory_state (
      conversation_id text primary key references conversations(id) on delete cascade,
      message_position integer not null default 0,
      version integer not null default 0,
      updated_at timestamptz not null default now()
    );
    create table conversation_memory_applied (
      conversation_id text not null references conversations(id) on delete cascade,
      source_key text not null,
      applied_at timestamptz not null default now(),
      primary key (conversation_id, source_key)
    );

    -- The completed jobs of a conversation (federated jobs name it in metadata.xdhconvid, the
    -- desk's tasks in conversationId), read by the projection.
    create index jobs_memory_conversation_idx on jobs
      ((coalesce(payload->>'conversationId', payload->'metadata'->>'xdhconvid')))
      where state = 'completed';
    -- The assistant's answers about a conversation's memory.
    create index assistant_requests_memory_idx on assistant_requests ((body->>'conversationId'))
      where kind = 'conversation.memory' and state = 'answered';

    -- Finding conversations: newest first, by tenant, by patient name (prefix, any case).
    create index conversations_created_idx on conversations (created_at desc, id desc);
    create index conversations_tenant_created_idx on conversations (tenant, created_at desc, id desc);
    create index consumers_given_name_idx on consumers (lower(given_name) text_pattern_ops);
    create index consumers_family_name_idx on consumers (lower(family_name) text_pattern_ops);
    create index consumers_full_name_idx on consumers
      (lower(given_name || ' ' || family_name) text_pattern_ops);
  `.execute(db);
}

export function down(): Promise<void> {
  return Promise.reject(
    new Error(
      '019-conversation-memory cannot be rolled back: drop the conversation_memory_* tables by hand.',
    ),
  );
}
