import { useMutation } from '@tanstack/react-query';
import type { SentSummaryJob, SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `POST /internal/job-types/hpi-summarisation/jobs/{id}/_send`: the job with its sourceName and
 * sourceVersion (spec 2 §7); the note goes to the physician and the job is done.
 */
export function sendSummaryJob(job: SummaryJob): Promise<SentSummaryJob> {
  return callRoute('POST', '/internal/job-types/hpi-summarisation/jobs/:id/_send', {
    params: { id: job.id },
    body: job,
    tenantId: job.metadata.tenant,
  });
}

export function useSendSummaryJob() {
  return useMutation({ mutationFn: sendSummaryJob });
}
