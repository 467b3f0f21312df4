import { z } from 'zod';

/** The realtime queues (issue 3). */
export const QUEUES = [
  'federated',
  'exceptions',
  'exceptions-restricted',
  'hpi-summarisation',
  'priority',
] as const;
export const QueueName = z.enum(QUEUES);
export type QueueName = z.infer<typeof QueueName>;

/** Queues whose size the portal reads (spec 1 §7). */
export const SIZED_QUEUES = [
  'exceptions',
  'federated',
  'hpi-summarisation',
  'exceptions-restricted',
] as const;

/** States of a job. */
export const JobState = z.enum(['queued', 'assigned', 'completed', 'cancelled', 'dead']);
export type JobState = z.infer<typeof JobState>;

/** Answer of `GET /internal/queues/{queue}/_size` (spec 1 §3 "Queue size response"). */
export const QueueSize = z.object({ size: z.number().int().nonnegative() });
export type QueueSize = z.infer<typeof QueueSize>;

/** One dead-lettered job, as admins see it. */
export const DeadJob = z.object({
  id: z.string(),
  queue: z.string(),
  type: z.string(),
  tenant: z.string(),
  /** Assignments it had; it died at the last. */
  attempts: z.number().int(),
  /** Why its last attempt ended (the lease ran out, the technician left); null if unknown. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When it was dead-lettered. */
  deadAt: z.string(),
});
export type DeadJob = z.infer<typeof DeadJob>;

/** `GET /internal/jobs/_dead`: jobs that used up their attempts, newest first. */
export const DeadJobs = z.object({ items: z.array(DeadJob) });
export type DeadJobs = z.infer<typeof DeadJobs>;

/** `POST /internal/jobs/{id}/_requeue` and `/_discard`. */
export const JobIdParams = z.object({ id: z.uuid({ message: 'must be a job id (uuid)' }) });
export type JobIdParams = z.infer<typeof JobIdParams>;

/** What a requeued (`queued`, no attempts yet) or discarded (`cancelled`) dead job became. */
export const DeadJobOutcome = DeadJob.omit({ deadAt: true }).extend({
  state: JobState,
  updatedAt: z.string(),
});
export type DeadJobOutcome = z.infer<typeof DeadJobOutcome>;
