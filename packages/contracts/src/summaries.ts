import { z } from 'zod';
import { ExternalId } from './conversations.ts';

/**
 * Clinical summary review (spec 2 §1, §2 "Clinical Summary Review Jobs screen", §3 "Summary job",
 * §7 "Clinical summary"; spec 1 §7): a reviewer takes the next auto-generated note of a history of
 * present illness from the `hpi-summarisation` queue, edits it and sends it to the physician with
 * `PATCH /internal/job-types/hpi-summarisation/jobs/{id}`.
 */

/** A coded term of a summary (spec 2 §3 "Summary job": `codes[].code {system, code, value}`). */
export const SummaryCode = z.object({
  system: z.string().min(1).describe('the coding system: UMLS or ICD-10 (spec 2 §9)'),
  code: z.string().min(1),
  value: z.string().describe('the term as read'),
});
export type SummaryCode = z.infer<typeof SummaryCode>;

/** A code of the summary and where it came from (spec 2 §3 "Summary job": `codes [{source, code}]`). */
export const SummaryCoding = z.object({
  source: z.string().min(1).describe('snomed or manual for entity codes (spec 2 §9)'),
  code: SummaryCode,
});
export type SummaryCoding = z.infer<typeof SummaryCoding>;

/** An entity highlight in a section (spec 2 §3 "Summary job": `annotations [{id, start, end, code}]`). */
export const SummaryAnnotation = z
  .object({
    id: z.string().min(1),
    start: z.number().int().min(0, { message: 'must be a character offset from 0' }),
    end: z.number().int().min(0, { message: 'must be a character offset from 0' }),
    code: z.string().describe('the code (`codes[].code.code`) the highlighted text stands for'),
  })
  .refine((annotation) => annotation.end >= annotation.start, {
    message: 'must not end before it starts',
    path: ['end'],
  });
export type SummaryAnnotation = z.infer<typeof SummaryAnnotation>;

/** A section of the note (spec 2 §3 "Summary job": `sections [{id, content, annotations}]`). */
export const SummarySection = z.object({
  id: z.string().min(1),
  content: z.string(),
  annotations: z.array(SummaryAnnotation),
});
export type SummarySection = z.infer<typeof SummarySection>;

/** The editable note (spec 2 §3 "Summary job": `document {sections, codes}`). */
export const SummaryDocument = z.object({
  sections: z.array(SummarySection),
  codes: z.array(SummaryCoding),
});
export type SummaryDocument = z.infer<typeof SummaryDocument>;

/**
 * The job's metadata (spec 1 §3 "Job metadata keys"; spec 1 §7: "X-Tenant-ID from the job's tenant
 * metadata"): the tenant, and the conversation whose transcript the job view's tab shows.
 */
export const SummaryJobMetadata = z.looseObject({
  tenant: z.string().min(1, { message: 'must not be empty: the X-Tenant-ID of the submit' }),
  conversationId: z.string().min(1),
});
export type SummaryJobMetadata = z.infer<typeof SummaryJobMetadata>;

/**
 * Summary job (spec 2 §3): the answer of `GET …/hpi-summarisation/jobs/_next` and the body of
 * `PATCH …/hpi-summarisation/jobs/{id}` ("body is the job", spec 1 §7), which the portal sends
 * back with its own `sourceName` and `sourceVersion` (spec 2 §7). Loose, so that what the server
 * adds travels back with it.
 */
export const SummaryJob = z.looseObject({
  id: ExternalId,
  metadata: SummaryJobMetadata,
  document: SummaryDocument,
  sourceName: z.string().min(1).describe('who wrote this version of the note'),
  sourceVersion: z.string().min(1),
});
export type SummaryJob = z.infer<typeof SummaryJob>;

/** `GET /internal/job-types/hpi-summarisation/jobs/_next` (spec 1 §7): the job, or null when the queue is empty. */
export const NextSummaryJob = SummaryJob.nullable();
export type NextSummaryJob = z.infer<typeof NextSummaryJob>;

/** Params of `PATCH /internal/job-types/hpi-summarisation/jobs/{id}` (spec 1 §7). */
export const SummaryJobParams = z.object({ id: ExternalId });
export type SummaryJobParams = z.infer<typeof SummaryJobParams>;
