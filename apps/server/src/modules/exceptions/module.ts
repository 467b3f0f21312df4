import fp from 'fastify-plugin';
import { createExceptionDesk, type ExceptionDesk } from './desk.ts';
import { registerExceptionRoutes } from './routes.ts';
import { isExceptionQueue } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The exception desk: its `listener` hears of new messages and handovers from the
     * conversations service; `allocate` runs an allocation pass.
     */
    exceptionDesk: ExceptionDesk;
  }
}

/**
 * The exception desk (issue 5): conversations handed to reviewers on the `/ws/exceptions`
 * sockets, whose policy it gives the hub; the tasks of those conversations, checked as the
 * assistant creates them; and its `/internal` routes with the exceptions queues' sizes.
 */
export default fp(
  (app) => {
    const { config, db, bus, hub } = app;
    const heartbeatMs = config.env.SOCKET_HEARTBEAT_SECONDS * 1000;
    const desk = createExceptionDesk({
      db,
      bus,
      log: app.log,
      port: hub.port('exceptions'),
      capacity: config.env.EXCEPTION_REVIEWER_CAPACITY,
      // A technician session not seen for three heartbeats is gone.
      staleMs: 3 * heartbeatMs,
      sweepMs: config.env.LEASE_SWEEP_SECONDS * 1000,
      redFlags: app.conversations.redFlags,
    });
    // The hub stops the desk's policy (its sweep and listeners) as it shuts down.
    hub.usePolicy('exceptions', desk.policy);
    desk.start();
    // A task of the exceptions queues belongs to its conversation: checked in the job's own
    // transaction, and shown to the reviewer holding it after commit.
    app.integration.addJobHooks({
      // Only the exceptions queues' jobs are tasks of a conversation.
      attaches: isExceptionQueue,
      attach: (trx, job) => desk.service.attachTask(trx, job),
      created: (job) => desk.taskCreated(job),
    });
    app.decorate('exceptionDesk', desk);
    registerExceptionRoutes(app.api, desk, db);
    // New messages and handovers of the conversations store reach the desk.
    app.conversations.listen(desk.listener);
    return Promise.resolve();
  },
  {
    name: 'exceptions',
    dependencies: ['platform', 'jobs', 'realtime', 'integration', 'conversations'],
  },
);
