import {
  AUTHORING_LIST_STATUSES,
  JOB_TYPE_OF_STATUS,
  jobTypeOf,
  type AuthoringJob,
  type AuthoringJobSummary,
  type AuthoringJobType,
} from '@loopdesk/contracts/routes/authoring.ts';
import { annotateVerbs } from './annotate.ts';
import { createAuthoringContext, type Actor, type AuthoringDeps, type Origin } from './context.ts';
import { holdVerbs } from './hold.ts';
import { reviewVerbs } from './review.ts';
import { liveHolder, sourceOf } from './state.ts';

export { AuthoringConflictError, type Actor, type Origin } from './context.ts';

/**
 * The authoring side of guideline documents (spec 2 §4 "Authoring job status mapping", issue 13):
 * holding a job, draft, submit and review of its annotations, each a new version of the job, and
 * the approved annotations written to the knowledge base. Every read and write is audited.
 */
export function createAuthoringService(deps: AuthoringDeps) {
  const ctx = createAuthoringContext(deps);
  const { db, repo, audit, audited, holderOf, view, found } = ctx;

  return {
    repo,

    /** The 'Authoring Tasks' table. */
    async list(
      jobTypes: readonly AuthoringJobType[] | undefined,
      actor: Actor,
      origin: Origin,
    ): Promise<AuthoringJobSummary[]> {
      const statuses = AUTHORING_LIST_STATUSES.filter(
        (status) => !jobTypes || jobTypes.includes(JOB_TYPE_OF_STATUS[status]),
      );
      const rows = await repo.list(statuses);
      const emails = await repo.emails(rows.flatMap((row) => liveHolder(row) ?? []));
      await audit(db, 'list.read', actor, null, origin, 'success', {
        jobTypes: jobTypes ?? 'all',
        count: rows.length,
      });
      return rows.map((row) => ({
        key: row.key,
        code: row.code,
        displayName: row.job.displayName,
        source: sourceOf(row.job),
        status: row.status,
        jobType: jobTypeOf(row.status) ?? 'annotation',
        holder: holderOf(row, emails),
        updatedOn: row.updated_at.toISOString(),
      }));
    },

    async get(key: string, actor: Actor, origin: Origin): Promise<AuthoringJob> {
      return audited('job.read', actor, key, origin, async () => {
        const job = await view(await found(key));
        await audit(db, 'job.read', actor, key, origin, 'success', {
          status: job.status,
          version: job.version,
        });
        return job;
      });
    },

    ...holdVerbs(ctx),
    ...annotateVerbs(ctx),
    ...reviewVerbs(ctx),
  };
}

export type AuthoringService = ReturnType<typeof createAuthoringService>;
