import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import type { Origin } from '../conversations/service.ts';

/** Who acted, for the audit trail. */
export interface Actor {
  readonly id: string;
  readonly email: string;
}

/**
 * Runs an action on patient communication; a refusal (4xx) is audited once its transaction has
 * ended (so that the entry stays), then thrown as it was.
 */
export async function audited<T>(
  db: Database,
  refusal: { actor: Actor; action: string; resourceType: string; resourceId: string },
  origin: Origin,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.statusCode < 500) {
      await recordAudit(
        db,
        {
          action: refusal.action,
          outcome: 'denied',
          actorId: refusal.actor.id,
          actorEmail: refusal.actor.email,
          resourceType: refusal.resourceType,
          resourceId: refusal.resourceId,
          statusCode: error.statusCode,
          details: { reason: error.message },
        },
        origin,
      );
    }
    throw error;
  }
}
