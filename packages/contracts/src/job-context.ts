import { z } from 'zod';
import { MessageDirection } from './conversations.ts';

/**
 * Who the patient of a held job is and what was said before (issue 20 "Context"): the federated
 * panel shows the patient's first name and the conversation's earlier turns. Patient data: only
 * the technician holding the job reads it, and every read is audited.
 */
export const JobContextTurn = z.object({
  direction: MessageDirection,
  content: z.string(),
  createdOn: z.string(),
});
export type JobContextTurn = z.infer<typeof JobContextTurn>;

export const JobContext = z.object({
  /** The patient's first name, or null when the conversation names no known patient. */
  patient: z.object({ firstName: z.string() }).nullable(),
  /** The conversation's latest turns, oldest first (at most JOB_CONTEXT_TURNS). */
  turns: z.array(JobContextTurn),
});
export type JobContext = z.infer<typeof JobContext>;

/** How many earlier turns a job's context carries. */
export const JOB_CONTEXT_TURNS = 10;

/** A held job's id (the job event's `data.jobId`). */
export const HeldJobParams = z.object({ id: z.uuid({ message: 'must be a job id (uuid)' }) });
export type HeldJobParams = z.infer<typeof HeldJobParams>;

/** Answered when the job is not one the caller holds now. */
export const notHeldMessage = (id: string) =>
  `The job ${id} is not held by you: its context is shown only to the technician working it.`;
