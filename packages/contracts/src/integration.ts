import { z } from 'zod';
import { JOB_EVENT_TYPES } from './realtime.ts';
import { JobState, QueueName } from './jobs.ts';
import { SUMMARY_JOB_TYPE, SUMMARY_QUEUE, SummaryJobData } from './summaries.ts';

/**
 * The assistant's integration API (issue 6): `/api/v1` with API keys, a transactional outbox
 * delivered to the assistant's webhook and readable as a pull feed, and the admin routes that
 * manage keys and deliveries under `/internal/integration`.
 */

/** API keys look like `ldk_<8 hex prefix>_<secret>`. */
export const API_KEY_PREFIX = 'ldk_';
export const API_KEY_PATTERN = /^ldk_([0-9a-f]{8})_([A-Za-z0-9_-]{20,200})$/;

const isoDate = z.string().describe('ISO 8601 date-time');

// ---------------------------------------------------------------------------------------------
// API keys (admin)

/** An API key as admins see it: never the secret. */
export const ApiKeyView = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe('first 8 characters after ldk_, to recognise a key'),
  createdBy: z
    .string()
    .nullable()
    .describe('user id of the admin who created it; null for the CLI'),
  createdAt: isoDate,
  revokedAt: isoDate.nullable(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

export const ApiKeyList = z.object({ apiKeys: z.array(ApiKeyView) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/** Body of `POST /internal/integration/api-keys`. */
export const CreateApiKeyBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .describe('who uses the key, e.g. "assistant-production"'),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

/** Answer of `POST /internal/integration/api-keys`: the full key, shown this once. */
export const CreatedApiKey = ApiKeyView.extend({
  key: z.string().describe('the full key `ldk_<prefix>_<secret>`: shown once, store it now'),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyIdParams = z.object({ id: z.uuid({ message: 'must be an API key id (uuid)' }) });
export type ApiKeyIdParams = z.infer<typeof ApiKeyIdParams>;

// ---------------------------------------------------------------------------------------------
// Jobs (/api/v1)

/** The realtime job types, and the clinical summary's (a job of the summary screen, not a socket). */
const JOB_TYPES = [...JOB_EVENT_TYPES, SUMMARY_JOB_TYPE] as const;
const RPA_PREFIX = 'robot-process-automation.';
/** The one RPA step the portal has a screen for (spec 1 §2 "Manual RPA step screen"). */
const RPA_STEP = JOB_EVENT_TYPES.find((type) => type.startsWith(RPA_PREFIX));

/**
 * Job types the portal knows how to show (spec 1 §7 incoming events; spec 2 §3 Summary job). Any
 * other robot-process-automation step is refused here (issue 15): the portal has no screen for it,
 * so it would be held unseen by a technician until its lease ended.
 */
export const JobType = z
  .enum(JOB_TYPES, {
    error: (issue) =>
      typeof issue.input === 'string' && issue.input.startsWith(RPA_PREFIX)
        ? `${issue.input} is an RPA step the portal cannot show: send it as ${RPA_STEP} (the manual step, with data.portal the address where the technician does it)`
        : `must be one of ${JOB_TYPES.join(', ')}`,
  })
  .describe(
    `${JOB_TYPES.join(', ')} (spec 1 §7). ${SUMMARY_JOB_TYPE} goes to the ${SUMMARY_QUEUE} queue, and only it. Other robot-process-automation.<step> types are refused: the portal has no screen for them`,
  );

/** Body of `POST /api/v1/jobs`. */
export const CreateJobBody = z
  .strictObject({
    queue: QueueName,
    type: JobType,
    tenant: z.string().min(1, 'must not be empty').max(200),
    priority: z
      .number()
      .int()
      .min(-1000)
      .max(1000)
      .optional()
      .describe('higher first; default 0. Jobs of equal priority go oldest first'),
    data: z
      .union([SummaryJobData, z.record(z.string(), z.unknown())])
      .describe(
        `the job event data of spec 1 §3 (slotSpecification, slot, relatedSlots, lastTurn, job {purpose, exceptionLabel}, entity, portal, metadata …), sent to the technician as is; for ${SUMMARY_JOB_TYPE}, the summary job of spec 2 §3: { document {sections [{id, content, annotations [{id, start, end, code}]}], codes [{source, code {system, code, value}}]}, sourceName, sourceVersion, conversationId }`,
      ),
  })
  .superRefine((body, ctx) => {
    const summaryType = body.type === SUMMARY_JOB_TYPE;
    if (summaryType !== (body.queue === SUMMARY_QUEUE)) {
      ctx.addIssue({
        code: 'custom',
        message: summaryType
          ? `must be ${SUMMARY_QUEUE} for a ${SUMMARY_JOB_TYPE}`
          : `takes only ${SUMMARY_JOB_TYPE} jobs`,
        path: ['queue'],
      });
    }
    if (summaryType) {
      // The summary screen shows the note and its transcript: every field must be there.
      const checked = SummaryJobData.safeParse(body.data);
      for (const issue of checked.error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: ['data', ...issue.path] });
      }
    }
  });
export type CreateJobBody = z.infer<typeof CreateJobBody>;

/** Headers of `POST /api/v1/jobs`. */
export const CreateJobHeaders = z.looseObject({
  'idempotency-key': z
    .string({ message: 'is required: send an Idempotency-Key header (1–200 characters)' })
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .describe('same key and body again → the existing job; same key, other body → 409'),
});
export type CreateJobHeaders = z.infer<typeof CreateJobHeaders>;

export const JobIdParams = z.object({ id: z.uuid({ message: 'must be a job id (uuid)' }) });
export type JobIdParams = z.infer<typeof JobIdParams>;

/** What a completed job holds: the technician's submission (spec 1 §7). */
export const JobResult = z
  .looseObject({
    type: z
      .string()
      .describe('the submission’s event type of spec 1 §7, such as message.annotation'),
    data: z
      .record(z.string(), z.unknown())
      .describe('the submission’s payload of spec 1 §7 for its type, with the jobId it answers'),
  })
  .describe('the technician’s submission that completed the job');
export type JobResult = z.infer<typeof JobResult>;

/** A job as the assistant reads it. */
export const JobView = z.object({
  id: z.uuid(),
  queue: QueueName,
  type: z.string(),
  tenant: z.string(),
  state: JobState,
  attempts: z.number().int(),
  priority: z.number().int(),
  data: z
    .record(z.string(), z.unknown())
    .describe(
      'the job event data of spec 1 §3 exactly as sent in POST /api/v1/jobs (slotSpecification, slot, relatedSlots, lastTurn, job, entity, portal, metadata …)',
    ),
  createdAt: isoDate,
  completedAt: isoDate.nullable(),
  result: JobResult.nullable().describe(
    'null until the job is completed; then the technician’s submission: { type, data }',
  ),
});
export type JobView = z.infer<typeof JobView>;

// ---------------------------------------------------------------------------------------------
// Outbox: pull feed and webhook payloads

export const OUTBOX_EVENT_TYPES = [
  'job.created',
  'job.completed',
  'job.cancelled',
  'job.dead',
  'job.requeued',
  // The exception desk (issue 5): a reviewer's manual reply to deliver to the patient, a
  // conversation handed back to the assistant, a conversation ended (END or TERMINATE).
  'conversation.reply',
  'conversation.handedback',
  'conversation.ended',
  // Direct messaging and push (issue 15): a staff message for the patient, a thread archived, a
  // push broadcast to fan out, a test push to one patient (packages/contracts/src/messaging.ts).
  'message.sent',
  'thread.archived',
  'notification.broadcast',
  'notification.test',
] as const;
export const OutboxEventType = z.enum(OUTBOX_EVENT_TYPES);
export type OutboxEventType = z.infer<typeof OutboxEventType>;

/** One event of the outbox: the pull feed's item and the webhook's JSON body. */
export const OutboxEvent = z.object({
  cursor: z.string().describe('position in the feed, `{transaction}_{sequence}`'),
  id: z.uuid().describe('event id: the webhook-id header, and the idempotency key of a delivery'),
  type: OutboxEventType,
  jobId: z.uuid().nullable().describe('the job of a job.* event; null for the others'),
  conversationId: z
    .string()
    .nullable()
    .describe('the conversation of a conversation.* event; null for the others'),
  data: z
    .record(z.string(), z.unknown())
    .describe(
      '{ job: the job as GET /api/v1/jobs/{id} answers it at the time, …extra }; conversation.* events: { conversation, … }',
    ),
  createdAt: isoDate,
});
export type OutboxEvent = z.infer<typeof OutboxEvent>;

/** Query of `GET /api/v1/events`. */
export const EventsQuery = z.object({
  after: z
    .string()
    .regex(/^\d{1,20}_\d{1,18}$/, 'must be a cursor from a previous answer, such as 812_40')
    .optional()
    .describe('the nextCursor of the previous page; absent = from the start'),
  limit: z.coerce
    .number({ message: 'must be a whole number from 1 to 500' })
    .int('must be a whole number from 1 to 500')
    .min(1, 'must be at least 1')
    .max(500, 'must be at most 500')
    .default(100),
});
export type EventsQuery = z.infer<typeof EventsQuery>;

export const EventFeed = z.object({
  events: z.array(OutboxEvent),
  nextCursor: z
    .string()
    .describe('pass as ?after= to read on; unchanged when there is nothing new'),
});
export type EventFeed = z.infer<typeof EventFeed>;

// ---------------------------------------------------------------------------------------------
// Webhook deliveries (admin)

export const DeliveryState = z.enum(['pending', 'delivered', 'dead']);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const WebhookDeliveryView = z.object({
  eventId: z.uuid(),
  cursor: z.string(),
  type: OutboxEventType,
  jobId: z.uuid().nullable(),
  conversationId: z.string().nullable(),
  state: DeliveryState,
  attempts: z.number().int(),
  nextAttemptAt: isoDate.nullable(),
  deliveredAt: isoDate.nullable(),
  deadAt: isoDate.nullable(),
  lastError: z.string().nullable(),
  createdAt: isoDate,
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const DeliveriesQuery = z.object({
  state: DeliveryState.optional(),
  limit: z.coerce
    .number({ message: 'must be a whole number from 1 to 500' })
    .int()
    .min(1)
    .max(500)
    .default(100),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

export const DeliveryList = z.object({ deliveries: z.array(WebhookDeliveryView) });
export type DeliveryList = z.infer<typeof DeliveryList>;

export const EventIdParams = z.object({
  eventId: z.uuid({ message: 'must be an event id (uuid)' }),
});
export type EventIdParams = z.infer<typeof EventIdParams>;
