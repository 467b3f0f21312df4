import type { WebhookDeliveryView } from '@loopdesk/contracts/integration.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Database } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { toDeliveryView, type OutboxRepository } from './outbox.ts';

/** Who asked for a redelivery, and from where, for the audit trail. */
export interface DeliveryActor {
  readonly userId: string | null;
  readonly email: string | null;
  readonly origin: { ip: string | null; userAgent: string | null; requestId: string | null };
}

/** What admins do with webhook deliveries: deliver a dead or delivered event again. */
export function createDeliveriesService(deps: {
  db: Database;
  outbox: OutboxRepository;
  /** Called after a redelivery commits (the webhook worker looks sooner). */
  onRedelivery?: () => void;
}) {
  const { db, outbox } = deps;
  return {
    /**
     * Schedules the event again, now, with fresh attempts and the same webhook-id, in one
     * transaction with its audit entry: 409 without a webhook or while it is still pending, 404
     * for an unknown event.
     */
    async redeliver(eventId: string, actor: DeliveryActor): Promise<WebhookDeliveryView> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await outbox.findDelivery(eventId, trx);
        // This node records deliveries only when it has a webhook (openDatabase, migration 015).
        if (!(await outbox.recordsDeliveries(trx))) {
          throw conflict(
            'No webhook is configured (ASSISTANT_WEBHOOK_URL is unset): there is nothing to deliver to; the event is in the pull feed.',
          );
        }
        if (!before) {
          throw notFound(`No outbox event with the id '${eventId}'.`);
        }
        if (!(await outbox.redeliver(eventId, trx))) {
          throw conflict(
            `The event ${eventId} is still pending delivery (attempt ${before.attempts}): it needs no redelivery.`,
          );
        }
        await recordAudit(
          trx,
          {
            action: 'integration.webhook.redeliver',
            outcome: 'success',
            actorId: actor.userId,
            actorEmail: actor.email,
            resourceType: 'outbox-event',
            resourceId: eventId,
            statusCode: 200,
            details: {
              type: before.type,
              jobId: before.job_id,
              previousState: before.dead_at ? 'dead' : 'delivered',
              previousAttempts: before.attempts,
            },
          },
          actor.origin,
        );
        return outbox.findDelivery(eventId, trx);
      });
      deps.onRedelivery?.();
      if (!row) {
        throw notFound(`No outbox event with the id '${eventId}'.`);
      }
      return toDeliveryView(row);
    },
  };
}
