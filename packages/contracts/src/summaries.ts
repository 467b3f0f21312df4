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

/**
 * The editable note (spec 2 §3 "Summary job": `document {sections, codes}`). Its highlights must
 * fit their section's text and stand for one of the document's codes: a note whose highlight
 * points past its text, or at a code it does not list, is refused with the path to fix.
 */
export const SummaryDocument = z
  .object({
    sections: z.array(SummarySection),
    codes: z.array(SummaryCoding),
  })
  .superRefine((document, ctx) => {
    const codes = new Set(document.codes.map((coding) => coding.code.code));
    const sectionIds = new Set<string>();
    document.sections.forEach((section, s) => {
      if (sectionIds.has(section.id)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be unique: another section is '${section.id}'`,
          path: ['sections', s, 'id'],
        });
      }
      sectionIds.add(section.id);
      section.annotations.forEach((annotation, a) => {
        if (annotation.end > section.content.length) {
          ctx.addIssue({
            code: 'custom',
            message: `must end within the section's text (${section.content.length} characters)`,
            path: ['sections', s, 'annotations', a, 'end'],
          });
        }
        if (!codes.has(annotation.code)) {
          ctx.addIssue({
            code: 'custom',
            message: `must be the code of one of document.codes ('${annotation.code}' is none)`,
            path: ['sections', s, 'annotations', a, 'code'],
          });
        }
      });
    });
  });
export type SummaryDocument = z.infer<typeof SummaryDocument>;

/** The queue of summary jobs and the job type the assistant sends them as (`POST /api/v1/jobs`). */
export const SUMMARY_QUEUE = 'hpi-summarisation';
export const SUMMARY_JOB_TYPE = 'hpi.summarisation.job';
/** The result type of a sent summary: the clinical note goes to the physician (`job.completed`). */
export const SUMMARY_SENT_TYPE = 'hpi.summarised';

/**
 * The `data` of a summary job the assistant creates (`POST /api/v1/jobs` with queue
 * `hpi-summarisation` and type `hpi.summarisation.job`): the note of spec 2 §3 with who wrote it,
 * and the conversation it summarises (the job's tenant is the body's `tenant`).
 */
export const SummaryJobData = z.looseObject({
  document: SummaryDocument,
  sourceName: z.string().min(1).max(200).describe('who wrote this version of the note'),
  sourceVersion: z.string().min(1).max(200),
  conversationId: ExternalId.describe(
    'the conversation the note summarises: its transcript is shown beside the note',
  ),
});
export type SummaryJobData = z.infer<typeof SummaryJobData>;

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

/** The X-Tenant-ID header of `PATCH …/jobs/{id}` and `…/_send`: the job's tenant (spec 1 §7). */
export const SummaryTenantHeaders = z.looseObject({
  'x-tenant-id': z
    .string({ message: "is required: send the job's tenant (metadata.tenant) as X-Tenant-ID" })
    .min(1, 'must not be empty')
    .max(200),
});
export type SummaryTenantHeaders = z.infer<typeof SummaryTenantHeaders>;

/**
 * A job the reviewer sent (`POST …/jobs/{id}/_send`): completed, with when and by whom; the
 * assistant hears of it as `job.completed` with the result `hpi.summarised`.
 */
export const SentSummaryJob = SummaryJob.extend({
  sentAt: z.string().describe('ISO 8601 date-time'),
  sentBy: z.string().describe('the reviewer’s email'),
});
export type SentSummaryJob = z.infer<typeof SentSummaryJob>;

/** A page of the job's transcript (`GET …/jobs/{id}/messages?p=`): pages of 10, oldest first. */
export const SummaryMessagesQuery = z.object({
  p: z.coerce
    .number({ message: 'must be a page number from 0' })
    .int({ message: 'must be a whole number' })
    .min(0, { message: 'must be a page number from 0' })
    .max(100_000)
    .default(0),
});
export type SummaryMessagesQuery = z.infer<typeof SummaryMessagesQuery>;

/** What the conversations area reads of the latest reviewed note of a conversation. */
export interface ReviewedSummary {
  document: SummaryDocument;
  /** The reviewer's email. */
  reviewedBy: string;
  completedAt: string;
}
