import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import {
  DUPLICATE_SESSION_CLOSE_CODE,
  DUPLICATE_SESSION_MESSAGE,
  type SessionActionResult,
  SOCKET_PATHS,
  type SessionSource,
} from '@loopdesk/contracts/realtime.ts';
import type { ApiRouter, RouteRequest } from '../../platform/api-routes.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { authorize, verifyAccessToken } from '../../platform/auth/guard.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { TokenService } from '../../platform/auth/tokens.ts';
import type { Database } from '../../platform/db/database.ts';
import { badRequest, conflict, notFound, unauthorized } from '../../platform/errors.ts';
import type { Bus } from '../../platform/bus.ts';
import { decodeUserKey } from '../users/service.ts';
import { createUsersRepository } from '../users/repository.ts';
import type { RealtimeHub } from './hub.ts';
import type { SessionsRepository } from './sessions-repository.ts';
import { SOCKET_PRIVILEGE } from './role-changes.ts';

/** The technician sockets: the access token travels as the sub-protocol. */
export async function registerSockets(
  app: FastifyInstance,
  deps: { hub: RealtimeHub; tokens: TokenService; sessions: SessionStore },
): Promise<void> {
  await app.register(websocket, {
    options: {
      // Frames up to 1 MiB are read and answered; the hub refuses those over MAX_FRAME_BYTES.
      maxPayload: 1024 * 1024,
      handleProtocols: (protocols: Set<string>) => protocols.values().next().value ?? false,
    },
  });
  for (const [source, path] of Object.entries(SOCKET_PATHS) as [SessionSource, string][]) {
    app.get(
      path,
      {
        websocket: true,
        preValidation: async (request) => {
          const token = request.headers['sec-websocket-protocol']?.split(',')[0]?.trim();
          if (!token) {
            throw unauthorized('Pass the access token as the WebSocket sub-protocol.');
          }
          const user = await verifyAccessToken(token, deps.tokens, deps.sessions);
          request.user = user;
          authorize(user, { anyOf: [SOCKET_PRIVILEGE[source]] });
        },
      },
      async (socket, request) => {
        const user = request.user;
        if (!user) {
          socket.close(1008, 'Not signed in.');
          return;
        }
        await deps.hub.attach(
          socket,
          user,
          source,
          { code: DUPLICATE_SESSION_CLOSE_CODE, message: DUPLICATE_SESSION_MESSAGE },
          request.ip,
        );
      },
    );
  }
}

/** Session management and counts (spec 1 §7, spec 3 §7 Admin), and the portal events call. */
export function registerSessionRoutes(
  api: ApiRouter,
  deps: { db: Database; hub: RealtimeHub; sessionsRepo: SessionsRepository; bus: Bus },
): void {
  const users = createUsersRepository(deps.db);

  api.route('GET /internal/sessions/_summary', async () => ({
    items: (await deps.sessionsRepo.summary()).map((row) => ({
      technicianId: row.user_id,
      state: row.state,
      source: row.source,
      name: row.name,
      connected: row.connected,
    })),
  }));

  api.route('GET /internal/sessions/_count', async () => deps.sessionsRepo.countTechnicians());

  const act =
    (remove: boolean) =>
    async (
      request: RouteRequest<
        | 'GET /internal/users/:userId/sessions/_close'
        | 'GET /internal/users/:userId/sessions/_remove'
      >,
    ): Promise<SessionActionResult> => {
      const { userId } = request.params;
      const key = decodeUserKey(userId);
      const user = /^[0-9a-f-]{36}$/i.test(key)
        ? await users.findById(key)
        : await users.findByEmail(key);
      if (!user || !(await deps.sessionsRepo.exists(user.id))) {
        throw notFound(`No technician session for '${key}'.`);
      }
      await deps.bus.publish('sessions.close', { userId: user.id, remove });
      if (remove) {
        await deps.sessionsRepo.remove(user.id);
      }
      await recordAudit(
        deps.db,
        {
          action: remove ? 'sessions.remove' : 'sessions.close',
          outcome: 'success',
          actorId: request.user?.id ?? null,
          actorEmail: request.user?.email ?? null,
          resourceType: 'technician',
          resourceId: user.id,
          statusCode: 200,
        },
        requestOrigin(request),
      );
      return { technicianId: user.id, action: remove ? 'removed' : 'closed' };
    };
  api.route('GET /internal/users/:userId/sessions/_close', act(false));
  api.route('GET /internal/users/:userId/sessions/_remove', act(true));

  api.route('POST /internal/users/me/_events', async (request, reply) => {
    const event = request.body;
    if (event.type !== 'dh.portal.hitl.event') {
      throw badRequest('Only dh.portal.hitl.event is accepted here.', [
        { path: 'body.type', message: 'must be dh.portal.hitl.event' },
      ]);
    }
    if (!request.user) {
      throw unauthorized('Sign in first.');
    }
    // The portal sends the event on its socket too (spec 1 §7): whichever copy comes first
    // completes the job, the other is taken and changes nothing.
    if ((await deps.hub.submitFromHttp(request.user.id, event)) === 'refused') {
      throw conflict(
        'This event is for a job you do not hold on an open socket: it changed nothing.',
      );
    }
    return reply.status(202).send({ accepted: true });
  });
}
