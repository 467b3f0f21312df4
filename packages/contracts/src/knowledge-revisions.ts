import { z } from 'zod';

/*
 * Knowledge write-back (issue 7 item 5): the revisions an approved pipeline wrote into the
 * knowledge base.
 */

/** What one revision did, in words a reviewer reads ('complication pneumonia'). */
export const KnowledgeRevisionSummary = z.object({
  condition: z.string(),
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
});
export type KnowledgeRevisionSummary = z.infer<typeof KnowledgeRevisionSummary>;

/** A version of the clinical knowledge base written back by a completed task. */
export const KnowledgeRevision = z.object({
  revision: z.number().int(),
  kbVersion: z.string(),
  /** The version the change was made against. */
  baseVersion: z.string(),
  /** The async task whose completion made it; null for a document's approved annotations. */
  taskId: z.string().nullable(),
  pipelineId: z.number().int().nullable(),
  /** The document whose approved annotations made it (issue 13), else null. */
  documentKey: z.string().nullable().optional(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  summary: KnowledgeRevisionSummary,
  /** False when replaying it onto the current KB_PATH file failed (the log says why). */
  applied: z.boolean(),
});
export type KnowledgeRevision = z.infer<typeof KnowledgeRevision>;

/** `GET /internal/async-jobs/knowledge/revisions`: the served version and every revision. */
export const KnowledgeRevisionList = z.object({
  kbVersion: z.string(),
  revisions: z.array(KnowledgeRevision),
});
export type KnowledgeRevisionList = z.infer<typeof KnowledgeRevisionList>;
