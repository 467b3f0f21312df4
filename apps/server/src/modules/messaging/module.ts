import fp from 'fastify-plugin';
import { createNotificationsService } from './notifications.ts';
import { registerPatientApi } from './patient-api.ts';
import { registerMessagingRoutes } from './routes.ts';
import { createThreadsService } from './threads.ts';

/**
 * Patient communication (issue 15 items 5 and 6). Direct messaging (spec 3 §2, §4, §7): staff
 * threads with patients. Staff
 * messages reach the patient through the assistant (`message.sent` in the outbox: its webhook and
 * pull feed); the patient's replies come back on `/api/v1/threads/{id}/messages`. Push
 * (spec 3 §7 "Push"): broadcasts and test sends become `notification.*` events the assistant fans
 * out to devices, reporting the receipt on `/api/v1/notifications/{id}/receipt`.
 */
export default fp(
  (app) => {
    const notifications = createNotificationsService(app.db, {
      broadcastsPerHour: app.config.env.PUSH_BROADCASTS_PER_HOUR,
      testsPerHour: app.config.env.PUSH_TESTS_PER_HOUR,
    });
    registerMessagingRoutes(app.api, createThreadsService(app.db), notifications);
    registerPatientApi(app.integration, { db: app.db, notifications });
    return Promise.resolve();
  },
  { name: 'messaging', dependencies: ['platform', 'integration', 'conversations'] },
);
