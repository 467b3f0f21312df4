import type { AuthoringJob } from '@loopdesk/contracts/routes/authoring.ts';
import { forbidden } from '../../platform/errors.ts';
import {
  AuthoringConflictError,
  type Actor,
  type AuthoringContext,
  type Origin,
} from './context.ts';
import { ANNOTATABLE } from './state.ts';

/** Holding a job to annotate or review it (one holder at a time, a lease), and letting go. */
export function holdVerbs(ctx: AuthoringContext) {
  const { db, repo, leaseMs, audit, audited, view, found, may, fourEyes, notHeldByOther } = ctx;

  return {
    /** Holds the job to annotate it, or to review it (four eyes). */
    async take(key: string, actor: Actor, origin: Origin): Promise<AuthoringJob> {
      return audited('job.taken', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          let purpose: 'annotation' | 'review';
          if (ANNOTATABLE.includes(row.status)) {
            purpose = 'annotation';
            if (!may(actor, 'jobs:annotation:perform')) {
              throw forbidden(
                'To annotate a document you need the privilege jobs:annotation:perform.',
              );
            }
          } else if (row.status === 'ANNOTATED_FOR_REVIEW') {
            purpose = 'review';
            if (!may(actor, 'jobs:annotation:review')) {
              throw forbidden(
                'To review annotations you need the privilege jobs:annotation:review.',
              );
            }
            fourEyes(row, actor);
          } else {
            throw new AuthoringConflictError(
              `'${row.job.displayName}' is in status ${row.status}: there is nothing to annotate or review in it.`,
              await view(row, trx),
            );
          }
          await notHeldByOther(row, actor, trx);
          await repo.hold(key, actor.id, purpose, leaseMs, trx);
          await audit(trx, 'job.taken', actor, key, origin, 'success', { purpose });
          return view(await found(key, trx), trx);
        }),
      );
    },

    /** Lets go of a job the caller holds; anything else stays as it is. */
    async release(key: string, actor: Actor, origin: Origin): Promise<AuthoringJob> {
      return audited('job.released', actor, key, origin, () =>
        db.transaction().execute(async (trx) => {
          const row = await found(key, trx, true);
          const held = row.lease_holder === actor.id;
          if (held) {
            await repo.release(key, trx);
          }
          await audit(trx, 'job.released', actor, key, origin, 'success', { held });
          return view(await found(key, trx), trx);
        }),
      );
    },
  };
}
