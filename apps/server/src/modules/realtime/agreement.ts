import { sql } from 'kysely';
import type { Database } from '../../platform/db/database.ts';
import type { JobRow } from '../jobs/repository.ts';

/**
 * Agreement sampling (issue 16, docs/analytics.md "Agreement"): a share of the federated jobs,
 * once their first answer has completed them (and gone to the assistant, as every answer does),
 * is sent again to a second technician — never the first — as a job of its own with the same
 * type and payload, so the technician's screen cannot tell it from any other. Its answer is kept
 * for agreement only: it writes no outbox event (the assistant hears of the job exactly once),
 * and a sample whose technicians drop it `maxAttempts` times is cancelled, not requeued for ever.
 */
export interface AgreementOptions {
  /** The share of federated jobs sampled, 0 to 1 (AGREEMENT_SAMPLE_SHARE). */
  readonly share: number;
  /** Deliveries of a sample before it is given up (AGREEMENT_MAX_ATTEMPTS). */
  readonly maxAttempts: number;
  /** Draws the sampling decision (tests may fix it); Math.random by default. */
  readonly random?: () => number;
}

/** The queues whose jobs are sampled: the federated technicians' work. */
export const SAMPLED_QUEUES: readonly string[] = ['federated'];

/** Whether this answered job gets a second, unseen delivery. */
export function sampled(job: JobRow, options: AgreementOptions | undefined): boolean {
  if (!options || options.share <= 0 || job.agreement_of || !SAMPLED_QUEUES.includes(job.queue)) {
    return false;
  }
  return (options.random ?? Math.random)() < options.share;
}

/** Queues the second delivery of `job`, whose first answer came from `firstUserId`. */
export async function queueSample(
  db: Database,
  job: JobRow,
  firstUserId: string,
  options: AgreementOptions,
): Promise<JobRow> {
  const result = await sql<JobRow>`
    insert into jobs (queue, type, tenant, payload, priority, max_attempts, state, agreement_of,
      agreement_exclude)
    values (${job.queue}, ${job.type}, ${job.tenant}, ${JSON.stringify(job.payload)}::jsonb,
      ${job.priority}, ${options.maxAttempts}, 'queued', ${job.id}, ${firstUserId})
    returning *`.execute(db);
  const row = result.rows[0];
  if (!row) {
    throw new Error('the agreement sample insert returned no row');
  }
  return row;
}
