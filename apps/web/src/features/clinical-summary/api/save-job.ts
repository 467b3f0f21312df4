import type { SummaryJob } from '@loopdesk/contracts/summaries.ts';
import { callRoute } from '../../../lib/api-client.ts';

/**
 * `PATCH /internal/job-types/hpi-summarisation/jobs/{id}`: the edited job, with the job's tenant
 * as X-Tenant-ID (spec 1 §7). The screen saves as the reviewer edits; a failure is only logged
 * (spec 2 §8).
 */
export function saveSummaryJob(job: SummaryJob): Promise<SummaryJob> {
  return callRoute('PATCH', '/internal/job-types/hpi-summarisation/jobs/:id', {
    params: { id: job.id },
    body: job,
    tenantId: job.metadata.tenant,
  });
}
