import { z } from 'zod';
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

/** A vertex of the memory graph (spec 3 §3 "Memory graph: vertices … with ids"); what else it holds is not shown. */
export const MemoryVertex = z.looseObject({ id: z.string() });
export type MemoryVertex = z.infer<typeof MemoryVertex>;

/** An edge of the memory graph (spec 3 §3 "Memory graph: … edges with ids, from and to"). */
export const MemoryEdge = z.looseObject({ id: z.string(), from: z.string(), to: z.string() });
export type MemoryEdge = z.infer<typeof MemoryEdge>;

/** `GET /internal/conversations/{id}/memory` (spec 3 §7: "response vertices and edges"). */
export const ConversationMemory = z.looseObject({
  vertices: z.array(MemoryVertex),
  edges: z.array(MemoryEdge),
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
