import { useMutation } from '@tanstack/react-query';
import type { SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/job-types/hpi-summarisation/jobs/_next` (spec 1 §7): the oldest summary job,
 * leased to the caller (or the one they hold already); null when the queue is empty.
 */
export function takeNextSummaryJob(): Promise<SummaryJob | null> {
  return callRoute('GET', '/internal/job-types/hpi-summarisation/jobs/_next');
}

/** Taking a job changes the server's state: a mutation, never retried or cached. */
export function useTakeNextSummaryJob() {
  return useMutation({ mutationFn: takeNextSummaryJob });
}
