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

/** `GET /internal/jobs/_dead`: jobs that used up their attempts, newest first. */
export const DeadJobs = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      queue: z.string(),
      type: z.string(),
      tenant: z.string(),
      attempts: z.number().int(),
      updatedAt: z.string(),
    }),
  ),
});
export type DeadJobs = z.infer<typeof DeadJobs>;
