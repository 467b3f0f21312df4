import { useQuery } from '@tanstack/react-query';
import { JobContext } from '@loopdesk/contracts/job-context.ts';
import { callRoute } from '../../lib/api-client.ts';

/**
 * `GET /internal/quinn/jobs/{id}/_context` (issue 20): the held job's patient (first name) and the
 * conversation's latest turns, oldest first. Patient data, audited on the server.
 */
export function getJobContext(jobId: string, signal?: AbortSignal): Promise<JobContext> {
  return callRoute('GET', '/internal/quinn/jobs/:id/_context', {
    params: { id: jobId },
    schema: JobContext,
    expectStatus: 200,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The context of the held job, or null while it loads and when there is none: a job whose
 * conversation is not recorded, or a call that fails, shows the job as before (no error: the
 * context helps, the job does not need it).
 */
export function useJobContext(jobId: string | undefined): JobContext | null {
  const query = useQuery({
    queryKey: ['quinn', 'job-context', jobId],
    queryFn: ({ signal }) => getJobContext(jobId ?? '', signal),
    enabled: jobId !== undefined,
    retry: false,
    staleTime: Infinity,
  });
  return query.isSuccess ? query.data : null;
}
