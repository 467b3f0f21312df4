import fp from 'fastify-plugin';
import { registerJobMetrics } from './metrics.ts';
import { registerQueueRoutes } from './routes.ts';

/**
 * The job lifecycle at the bottom of the modules: the jobs table (repository.ts), the outbox
 * events of every change (events.ts), the dead-letter queue (dead-jobs.ts) and the job queues'
 * sizes. It imports no other module; the realtime hub, the exception desk and the integration
 * API import it downward.
 */
export default fp(
  (app) => {
    registerQueueRoutes(app.api, app.db, app.bus);
    registerJobMetrics(app);
    return Promise.resolve();
  },
  { name: 'jobs', dependencies: ['platform', 'metrics'] },
);
