import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  display_name: string | null;
  photo_url: string | null;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_sign_in_at: NullableTimestamp;
}

export interface AuthSessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: CreatedAt;
  last_refreshed_at: Timestamp;
  absolute_expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  issued_at: CreatedAt;
  used_at: NullableTimestamp;
}

export interface AuthTransactionsTable {
  id: string;
  state: string;
  nonce: string;
  code_verifier: string;
  created_at: CreatedAt;
}

export interface AuditEventsTable {
  id: Generated<number>;
  occurred_at: CreatedAt;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  outcome: 'success' | 'denied' | 'failure';
  status_code: number | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  details: ColumnType<unknown, string | undefined, never>;
}

export interface JobsTable {
  id: Generated<string>;
  seq: ColumnType<number, never, never>;
  queue: string;
  type: string;
  tenant: string;
  payload: ColumnType<unknown, string, string>;
  priority: Generated<number>;
  state: ColumnType<
    'queued' | 'assigned' | 'completed' | 'cancelled' | 'dead',
    'queued' | undefined,
    'queued' | 'assigned' | 'completed' | 'cancelled' | 'dead'
  >;
  attempts: Generated<number>;
  /** Null: JOB_MAX_ATTEMPTS decides (010-job-max-attempts). */
  max_attempts: ColumnType<number | null, number | null | undefined, number | null>;
  lease_expires_at: NullableTimestamp;
  assignee_id: string | null;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  idempotency_key: string | null;
  queued_at: ColumnType<Date, Date | string | undefined, Date | string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  completed_at: NullableTimestamp;
  /** Why the last attempt ended without a submission (013-job-last-error). */
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** A second delivery for agreement: the sampled job (025-agreement); null for other jobs. */
  agreement_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who must not get this second delivery: the sampled job's first technician. */
  agreement_exclude: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TechnicianSessionsTable {
  user_id: string;
  source: 'federated' | 'exceptions' | 'priority';
  state: ColumnType<
    'paused' | 'waiting' | 'activated',
    'paused' | 'waiting' | 'activated' | undefined,
    'paused' | 'waiting' | 'activated'
  >;
  node_id: string | null;
  connection_id: string | null;
  last_seen_at: NullableTimestamp;
  waiting_since: NullableTimestamp;
  current_job_id: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Where the socket connects from, for the audit of direct hand-offs (012). */
  ip: string | null;
}

export interface ApiKeysTable {
  id: Generated<string>;
  name: string;
  prefix: string;
  secret_hash: string;
  created_by: string | null;
  created_at: CreatedAt;
  revoked_at: NullableTimestamp;
}

export interface OutboxEventsTable {
  cursor: ColumnType<number, never, never>;
  /** xid8, read as a string. */
  txid: ColumnType<string, never, never>;
  id: Generated<string>;
  type:
    | 'job.created'
    | 'job.completed'
    | 'job.cancelled'
    | 'job.dead'
    | 'job.requeued'
    | 'conversation.reply'
    | 'conversation.handedback'
    | 'message.sent'
    | 'thread.archived'
    | 'notification.broadcast'
    | 'notification.test'
    | 'conversation.ended';
  /** Null for conversation events (007-exceptions). */
  job_id: string | null;
  conversation_id: ColumnType<string | null, string | null | undefined, never>;
  data: ColumnType<unknown, string, never>;
  created_at: CreatedAt;
}

export interface WebhookDeliveriesTable {
  event_id: string;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  dead_at: NullableTimestamp;
  last_error: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AsyncTasksTable {
  id: Generated<string>;
  seq: ColumnType<number, never, never>;
  pipeline_id: number;
  step: string;
  job_type: string;
  job_class: string;
  state: string;
  version: string;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  annotations: ColumnType<{ entities: unknown[] }, string | undefined, string>;
  condition: ColumnType<Record<string, unknown>, string | undefined, string>;
  locations: ColumnType<Record<string, unknown>, string | undefined, string>;
  metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  change_log: ColumnType<unknown[], string | undefined, string>;
  lock_holder: string | null;
  lock_expires_at: NullableTimestamp;
  created_on: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  completed_at: NullableTimestamp;
  discarded_note: string | null;
  /** The holder's unsaved edits (issue 20 point 17); null when none. */
  draft: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

export interface KbRevisionsTable {
  revision: Generated<number>;
  /** Null for a revision from a document's approved annotations (`document_key`, migration 024). */
  task_id: string | null;
  pipeline_id: number | null;
  document_key: ColumnType<string | null, string | null | undefined, never>;
  base_version: string;
  change: ColumnType<unknown, string, never>;
  summary: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface AssistantRequestsTable {
  id: Generated<string>;
  kind: string;
  tenant: string;
  cache_key: string | null;
  body: ColumnType<Record<string, unknown>, string, never>;
  state: ColumnType<
    'pending' | 'answered' | 'failed' | 'expired',
    'pending' | undefined,
    'answered' | 'failed' | 'expired'
  >;
  answer: ColumnType<unknown, never, string | null>;
  error: string | null;
  /** Why it failed: `not_found` when the assistant does not know what was asked about. */
  error_reason: ColumnType<'not_found' | null, never, 'not_found' | null>;
  requested_by: string | null;
  claimed_at: NullableTimestamp;
  answered_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  answered_at: NullableTimestamp;
}

export interface ConsumersTable {
  id: string;
  tenant: string;
  given_name: string;
  family_name: string;
  email: string | null;
  external_references: ColumnType<{ system: string; reference: string }[], string, string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ConversationsTable {
  id: string;
  tenant: string;
  bot_conversation_id: string | null;
  consumer_id: string;
  /** 'bot', 'queue' or the holding reviewer's user id. */
  holder: ColumnType<string, string | undefined, string>;
  queue: 'exceptions' | 'exceptions-restricted' | null;
  restricted: ColumnType<boolean, boolean | undefined, boolean>;
  queued_at: NullableTimestamp;
  queue_seq: ColumnType<number | null, number | null | undefined, number | null>;
  handover_reason: string | null;
  allocated_at: NullableTimestamp;
  read: ColumnType<boolean, boolean | undefined, boolean>;
  status: ColumnType<'open' | 'ended', 'open' | undefined, 'open' | 'ended'>;
  end_type: 'END' | 'TERMINATE' | null;
  ended_at: NullableTimestamp;
  ended_by: string | null;
  message_count: ColumnType<number, number | undefined, number>;
  last_message_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ConversationMessagesTable {
  conversation_id: string;
  id: string;
  position: number;
  direction: 'IN' | 'OUT';
  content: string;
  author_kind: 'patient' | 'assistant' | 'reviewer';
  author_id: string;
  author_name: string;
  metadata: ColumnType<{ entities: unknown[] }, string | undefined, string>;
  translation: ColumnType<{ language: string; translation: string } | null, string | null, never>;
  reply_to: string | null;
  reply_type: string | null;
  created_on: Timestamp;
}

export interface ExceptionReviewersTable {
  user_id: string;
  current_conversation_id: string | null;
  idle_since: NullableTimestamp;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface PhysiciansTable {
  id: string;
  first_name: string;
  last_name: string;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface TenantConfigurationsTable {
  id: string;
  tenant: string;
  display_name: string;
  emr: ColumnType<{ system: string; recordUrl: string } | null, string | null, string | null>;
  timezone: string;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AppointmentsTable {
  id: Generated<string>;
  type: 'GENERAL' | 'HPI' | 'ONBOARDING';
  from_date_time: string;
  duration: number;
  timezone: string;
  starts_at: Timestamp;
  conversation_id: string | null;
  consumer_id: string | null;
  consumer_email: string | null;
  staff_id: string;
  staff_first_name: string;
  staff_last_name: string;
  consumer_note: string;
  appointment_note: string;
  status: ColumnType<string, string | undefined, string>;
  created_on: CreatedAt;
  created_by: string | null;
  created_by_email: string;
}

/** A reviewer's version of a summary job's note (migration 017). */
export interface SummaryReviewsTable {
  job_id: string;
  tenant: string;
  conversation_id: string;
  document: ColumnType<unknown, string, string>;
  source_name: string;
  source_version: string;
  saved_by: string;
  saved_at: ColumnType<Date, Date | string | undefined, Date | string>;
  sent_by: string | null;
  sent_at: NullableTimestamp;
}

export interface MessagingThreadsTable {
  id: Generated<string>;
  consumer_id: string;
  created_by: string | null;
  created_by_email: string;
  created_on: CreatedAt;
  archived_on: NullableTimestamp;
  archived_by: string | null;
}

export interface MessagingMessagesTable {
  id: Generated<string>;
  thread_id: string;
  external_id: string | null;
  direction: 'IN' | 'OUT';
  content: string;
  author_id: string;
  author_name: string;
  created_on: CreatedAt;
  read_on: NullableTimestamp;
}

export interface PushNotificationsTable {
  id: Generated<string>;
  kind: 'broadcast' | 'test';
  consumer_id: string | null;
  title: string;
  content: string;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_by: string | null;
  created_by_email: string;
  created_on: CreatedAt;
  delivered_devices: number | null;
  delivered_on: NullableTimestamp;
}

export interface DB {
  summary_reviews: SummaryReviewsTable;
  messaging_threads: MessagingThreadsTable;
  messaging_messages: MessagingMessagesTable;
  push_notifications: PushNotificationsTable;
  consumers: ConsumersTable;
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
  exception_reviewers: ExceptionReviewersTable;
  physicians: PhysiciansTable;
  tenant_configurations: TenantConfigurationsTable;
  appointments: AppointmentsTable;
  assistant_requests: AssistantRequestsTable;
  async_tasks: AsyncTasksTable;
  kb_revisions: KbRevisionsTable;
  api_keys: ApiKeysTable;
  outbox_events: OutboxEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  technician_sessions: TechnicianSessionsTable;
  jobs: JobsTable;
  users: UsersTable;
  auth_sessions: AuthSessionsTable;
  refresh_tokens: RefreshTokensTable;
  auth_transactions: AuthTransactionsTable;
  audit_events: AuditEventsTable;
  /** The view of migration 029: one patient-data entry per request, with its true outcome. */
  patient_data_audit: AuditEventsTable;
}
