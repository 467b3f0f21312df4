import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MessagesPage } from '@loopdesk/contracts/conversations.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `GET /internal/job-types/hpi-summarisation/jobs/{id}/messages?p=`: a page of 10 of the job's
 * conversation, oldest first (spec 2 §9), for the reviewer who holds the job.
 */
export function getJobMessages(
  jobId: string,
  page: number,
  signal?: AbortSignal,
): Promise<MessagesPage> {
  return callRoute('GET', '/internal/job-types/hpi-summarisation/jobs/:id/messages', {
    params: { id: jobId },
    query: { p: page },
    ...(signal ? { signal } : {}),
  });
}

export function useJobMessages(jobId: string, page: number) {
  return useQuery({
    queryKey: ['clinical-summary', jobId, 'messages', page],
    queryFn: ({ signal }) => getJobMessages(jobId, page, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
