import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { dataschemaDocument } from '@loopdesk/contracts/dataschemas.ts';
import {
  DATASCHEMAS,
  SOCKET_PATHS,
  type DataschemaName,
  type SessionSource,
} from '@loopdesk/contracts/realtime.ts';
import { createJobsRepository } from '../jobs/repository.ts';
import { createRealtimeHub, type RealtimeHub } from './hub.ts';
import { registerSessionRoutes, registerSockets } from './routes.ts';
import { createSessionsRepository } from './sessions-repository.ts';
import { closeSocketsOnRoleChange } from './role-changes.ts';
import { closeSocketsOnSessionEnd } from './session-ends.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * This node's technician sockets: dispatch of new jobs (`enqueue`/`announce`), the policy of
     * each socket kind (`usePolicy`, `port`) and the rules of submissions (`addSubmissionCheck`).
     */
    hub: RealtimeHub;
  }
}

/**
 * Realtime work: the technician sockets (`/ws/federated`, `/ws/exceptions`, `/ws/priority`),
 * technician sessions, dispatch and submissions, and the session routes of the admins. The
 * exception desk (modules/exceptions) gives the exceptions socket its policy; the workbench rules
 * reach submissions through `app.hub.addSubmissionCheck`.
 */
export default fp(
  async (app) => {
    const { config, database, db, bus, tokens, sessions } = app;
    const heartbeatMs = config.env.SOCKET_HEARTBEAT_SECONDS * 1000;
    const sessionsRepo = createSessionsRepository(db, 3 * heartbeatMs);
    const hub = createRealtimeHub({
      db,
      bus,
      jobs: createJobsRepository(db),
      sessions: sessionsRepo,
      log: app.log,
      nodeId: config.env.NODE_ID ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
      origin: config.publicUrl,
      leaseMs: config.env.JOB_LEASE_SECONDS * 1000,
      dispatchDb: database.dispatchDb,
      maxAttempts: config.env.JOB_MAX_ATTEMPTS,
      heartbeatMs,
      sweepMs: config.env.LEASE_SWEEP_SECONDS * 1000,
      agreement: {
        share: config.env.AGREEMENT_SAMPLE_SHARE,
        maxAttempts: config.env.AGREEMENT_MAX_ATTEMPTS,
      },
    });
    await registerSockets(app, { hub, tokens, sessions });
    hub.start();
    const offRoleChanges = closeSocketsOnRoleChange(bus, hub);
    // Sessions are checked again at the heartbeat's pace (at least every second).
    const offSessionEnds = closeSocketsOnSessionEnd({
      bus,
      hub,
      sessions,
      checkMs: Math.max(heartbeatMs, 1000),
      log: app.log,
    });
    app.addHook('preClose', async () => {
      offRoleChanges();
      offSessionEnds();
      await hub.stop();
    });
    app.decorate('hub', hub);
    const sockets: Gauge<'kind'> = new Gauge({
      name: 'loopdesk_sockets_open',
      help: "Technician sockets open on this node, by kind (the socket's path).",
      labelNames: ['kind'] as const,
      registers: [app.metrics.registry],
      collect: () => {
        const counts = new Map(
          (Object.keys(SOCKET_PATHS) as SessionSource[]).map((kind) => [kind, 0]),
        );
        for (const conn of hub.sockets()) {
          counts.set(conn.source, (counts.get(conn.source) ?? 0) + 1);
        }
        for (const [kind, count] of counts) {
          sockets.set({ kind }, count);
        }
      },
    });
    registerSessionRoutes(app.api, { db, hub, sessionsRepo, bus });
    // The JSON Schemas that frames name as `dataschema`, generated from the contracts.
    for (const name of Object.keys(DATASCHEMAS) as DataschemaName[]) {
      const document = dataschemaDocument(name, config.publicUrl);
      app.get(DATASCHEMAS[name], { logLevel: 'warn' }, async (_request, reply) =>
        reply.type('application/schema+json').send(document),
      );
    }
  },
  { name: 'realtime', dependencies: ['platform', 'metrics', 'jobs'] },
);
