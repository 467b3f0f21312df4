import type { FastifyInstance } from 'fastify';
import { createJobsRepository } from './repository.ts';

/** Queue depths at /metrics: live jobs by queue and state, counted at scrape time. */
export function registerJobMetrics(app: FastifyInstance): void {
  const jobs = createJobsRepository(app.db);
  // A queue seen once shows 0 when it empties, rather than vanishing from the graph.
  const seenQueues = new Set<string>();
  app.metrics.databaseGauge({
    name: 'loopdesk_jobs',
    help: 'Jobs waiting in (queued) or held from (assigned) each queue, counted at scrape time.',
    labelNames: ['queue', 'state'] as const,
    async read(gauge) {
      const rows = await jobs.liveCounts();
      for (const row of rows) {
        seenQueues.add(row.queue);
      }
      gauge.reset();
      for (const queue of seenQueues) {
        gauge.set({ queue, state: 'queued' }, 0);
        gauge.set({ queue, state: 'assigned' }, 0);
      }
      for (const row of rows) {
        gauge.set({ queue: row.queue, state: row.state }, row.n);
      }
    },
  });
}
