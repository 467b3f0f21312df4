import type { FastifyInstance } from 'fastify';
import type { OutboxRepository } from './outbox.ts';

/**
 * The outbox's lag at /metrics. The pull feed's readers keep their cursor to themselves, so the
 * server cannot know how far behind they are; what it does know is the webhook: an event is late
 * while its delivery is neither delivered nor dead. The lag is the age of the oldest such event
 * (0 when none, or when this deployment has no webhook).
 */
export function registerOutboxMetrics(app: FastifyInstance, outbox: OutboxRepository): void {
  app.metrics.databaseGauge({
    name: 'loopdesk_outbox_lag_seconds',
    help: 'Age of the oldest outbox event whose webhook delivery is still pending (0 when none).',
    async read(gauge) {
      gauge.set((await outbox.deliveryBacklog()).lagSeconds);
    },
  });
  app.metrics.databaseGauge({
    name: 'loopdesk_webhook_deliveries',
    help: 'Webhook deliveries still pending (retries included) and dead (awaiting an admin redelivery).',
    labelNames: ['state'] as const,
    async read(gauge) {
      const { pending, dead } = await outbox.deliveryBacklog();
      gauge.set({ state: 'pending' }, pending);
      gauge.set({ state: 'dead' }, dead);
    },
  });
}
