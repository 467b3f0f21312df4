import { z } from 'zod';
import { ExternalId } from './conversations.ts';
import { SummarySection } from './summaries.ts';

/**
 * What the conversation visualiser reads besides the transcript (spec 3 §2 "Conversations", §3,
 * §7 "Conversations", "Ontology and intelligence"; spec 2 §7): the conversations to open, a
 * conversation's memory graph and its current clinical summary.
 */

/** The largest page of `GET /internal/conversations/{id}/memory`. */
export const MEMORY_MAX_PAGE_SIZE = 1000;

/** Query of `GET /internal/conversations/{id}/memory` (spec 2 §7 "with s and p"): pages count from 0. */
export const MemoryQuery = z.object({
  s: z.coerce
    .number({ message: `must be a page size from 1 to ${MEMORY_MAX_PAGE_SIZE}` })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(MEMORY_MAX_PAGE_SIZE, { message: `must be at most ${MEMORY_MAX_PAGE_SIZE}` })
    .default(100),
  p: z.coerce
    .number({ message: 'must be a page number from 0' })
    .int({ message: 'must be a whole number' })
    .min(0, { message: 'must be 0 or more (pages count from 0)' })
    .default(0),
});
export type MemoryQuery = z.infer<typeof MemoryQuery>;

/** What a vertex of the memory stands for (issue 14; the spec does not show it). */
export const MEMORY_VERTEX_KINDS = [
  'patient',
  'finding',
  'condition',
  'answer',
  'handover',
] as const;
export const MemoryVertexKind = z.enum(MEMORY_VERTEX_KINDS);
export type MemoryVertexKind = z.infer<typeof MemoryVertexKind>;

/** Who put a vertex or an edge into the memory. */
export const MEMORY_SOURCES = [
  'patient',
  'assistant',
  'technician',
  'reviewer',
  'knowledge',
] as const;
export const MemorySource = z.enum(MEMORY_SOURCES);
export type MemorySource = z.infer<typeof MemorySource>;

/**
 * A vertex of the memory graph (spec 3 §3 "Memory graph: vertices … with ids"). What else it holds
 * is ours (issue 14): its kind, a label, the concept it stands for, and for a finding whether the
 * patient has it (presence) and since when (onset).
 */
export const MemoryVertex = z.looseObject({
  id: z.string(),
  kind: MemoryVertexKind.optional(),
  label: z.string().optional(),
  conceptId: z.string().nullable().optional(),
  presence: z.enum(['endorse', 'deny', 'unsure']).nullable().optional(),
  onset: z.string().nullable().optional(),
  source: MemorySource.optional(),
  updatedAt: z.string().optional(),
});
export type MemoryVertex = z.infer<typeof MemoryVertex>;

/** An edge of the memory graph (spec 3 §3 "Memory graph: … edges with ids, from and to"). */
export const MemoryEdge = z.looseObject({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  rel: z.string().optional(),
  source: MemorySource.optional(),
});
export type MemoryEdge = z.infer<typeof MemoryEdge>;

/** `GET /internal/conversations/{id}/memory` (spec 3 §7: "response vertices and edges"). */
export const ConversationMemory = z.looseObject({
  vertices: z.array(MemoryVertex),
  edges: z.array(MemoryEdge),
  page: z
    .object({
      number: z.number().int(),
      size: z.number().int(),
      total: z.number().int().describe('vertices in the memory'),
    })
    .optional()
    .describe('the page of vertices; edges are those between the vertices of the page'),
  version: z.number().int().optional().describe('grows with every change of the memory'),
});
export type ConversationMemory = z.infer<typeof ConversationMemory>;

/** Conversation object (spec 3 §3): a conversation the visualiser can open, and its tenant. */
export const ConversationObject = z.object({ conversationId: z.string(), tenant: z.string() });
export type ConversationObject = z.infer<typeof ConversationObject>;

/** `GET /internal/intelligence/demo/conversations` (spec 3 §7): the conversation dropdown's items. */
export const DemoConversationList = z.object({ items: z.array(ConversationObject) });
export type DemoConversationList = z.infer<typeof DemoConversationList>;

/**
 * Clinical summary (spec 3 §3: `document.sections[].content`), the answer of
 * `GET /internal/intelligence/conversations/{id}/clinical_summaries/_current` (spec 3 §7): the
 * summary job's document (spec 2 §3) as far as the dialog needs it.
 */
export const ClinicalSummary = z.looseObject({
  document: z.looseObject({
    sections: z.array(SummarySection.partial({ id: true, annotations: true })),
  }),
});
export type ClinicalSummary = z.infer<typeof ClinicalSummary>;

/**
 * The answer of `…/clinical_summaries/_current` (issue 14): the latest summary a reviewer sent to
 * the physician (reviewed), or else one composed from the conversation's memory, marked as not
 * reviewed so that nobody takes it for a clinician's note.
 */
export const CurrentClinicalSummary = ClinicalSummary.extend({
  reviewed: z.boolean(),
  source: z.enum(['review', 'memory']),
  reviewedBy: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type CurrentClinicalSummary = z.infer<typeof CurrentClinicalSummary>;

// ---------------------------------------------------------------------------------------------
// Finding conversations (issue 14: the spec's dropdown, and a search beyond it)

/** How a conversation stands: with the assistant, with a human (queued or held), or ended. */
export const CONVERSATION_STATUSES = ['open', 'human', 'ended'] as const;
export const ConversationStatusFilter = z.enum(CONVERSATION_STATUSES, {
  message: `must be one of ${CONVERSATION_STATUSES.join(', ')}`,
});
export type ConversationStatusFilter = z.infer<typeof ConversationStatusFilter>;

/** Largest page of the conversation search. */
export const CONVERSATION_SEARCH_MAX_PAGE_SIZE = 100;
/** The search's default page. */
export const CONVERSATION_SEARCH_PAGE_SIZE = 20;

const searchText = (what: string) =>
  z
    .string()
    .trim()
    .min(2, `must be at least 2 characters of the ${what}`)
    .max(200, 'must be at most 200 characters')
    .optional();

const searchDate = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/,
    'must be a date (yyyy-MM-dd) or an ISO 8601 date-time',
  )
  .refine((value) => {
    const [y = 0, m = 0, d = 0] = value.slice(0, 10).split('-').map(Number);
    const day = new Date(Date.UTC(y, m - 1, d));
    return (
      day.getUTCFullYear() === y &&
      day.getUTCMonth() === m - 1 &&
      day.getUTCDate() === d &&
      !Number.isNaN(Date.parse(value))
    );
  }, 'must be a real date')
  .optional();

/** Query of `GET /internal/conversations/_search`: every filter optional, all must match. */
export const ConversationSearchQuery = z
  .object({
    name: searchText("patient's name").describe(
      "the start of the patient's given name, family name or full name (any case)",
    ),
    id: ExternalId.optional().describe('a conversation id, whole'),
    from: searchDate.describe('started on or after (a date is its start, UTC)'),
    to: searchDate.describe('started on or before (a date is its whole day, UTC)'),
    finding: searchText('finding or condition').describe(
      'a finding the patient has, or a condition considered: its name or concept id',
    ),
    status: ConversationStatusFilter.optional(),
    s: z.coerce
      .number({ message: `must be a page size from 1 to ${CONVERSATION_SEARCH_MAX_PAGE_SIZE}` })
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be at least 1' })
      .max(CONVERSATION_SEARCH_MAX_PAGE_SIZE, {
        message: `must be at most ${CONVERSATION_SEARCH_MAX_PAGE_SIZE}`,
      })
      .default(CONVERSATION_SEARCH_PAGE_SIZE),
    p: z.coerce
      .number({ message: 'must be a page number from 0' })
      .int({ message: 'must be a whole number' })
      .min(0, { message: 'must be 0 or more (pages count from 0)' })
      .max(10_000, { message: 'must be at most 10000: narrow the search instead' })
      .default(0),
  })
  .refine(
    (query) =>
      query.from === undefined ||
      query.to === undefined ||
      Date.parse(query.from) <= Date.parse(query.to),
    { message: 'must not be before from', path: ['to'] },
  );
export type ConversationSearchQuery = z.infer<typeof ConversationSearchQuery>;

/** A conversation found: enough to recognise it and open it. */
export const ConversationSearchItem = z.object({
  conversationId: z.string(),
  tenant: z.string(),
  patient: z.object({ id: z.string(), name: z.string() }),
  status: ConversationStatusFilter,
  createdOn: z.string(),
  lastMessageAt: z.string().nullable(),
  messages: z.number().int(),
});
export type ConversationSearchItem = z.infer<typeof ConversationSearchItem>;

export const ConversationSearchResult = z.object({
  items: z.array(ConversationSearchItem),
  page: z.object({
    number: z.number().int(),
    size: z.number().int(),
    hasMore: z.boolean().describe('whether the next page has conversations'),
  }),
});
export type ConversationSearchResult = z.infer<typeof ConversationSearchResult>;

/** One read of a conversation in the audit trail (`GET /internal/conversations/{id}/_reads`). */
export const ConversationRead = z.object({
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  outcome: z.enum(['success', 'denied', 'failure']),
});
export type ConversationRead = z.infer<typeof ConversationRead>;

export const ConversationReads = z.object({ items: z.array(ConversationRead) });
export type ConversationReads = z.infer<typeof ConversationReads>;
