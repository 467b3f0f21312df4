import type { FastifyInstance } from 'fastify';
import { registerConversationApi, registerConversationRoutes } from '../conversations/routes.ts';
import { createConversationsService } from '../conversations/service.ts';
import { registerPhysicianApi, registerSchedulingRoutes } from '../scheduling/routes.ts';
import { createSchedulingService } from '../scheduling/service.ts';
import type { ExceptionDesk } from './desk.ts';

/**
 * The conversations and scheduling of the exception desk (issue 5), registered here until they
 * have module entries of their own: the assistant's /api/v1 conversation and physician calls,
 * and their /internal routes. The conversations service tells the desk of new messages and
 * handovers (`desk.listener`, also `app.exceptionDesk.listener`).
 */
export async function registerConversationsAndScheduling(
  app: FastifyInstance,
  desk: ExceptionDesk,
): Promise<void> {
  const conversations = createConversationsService({ db: app.db, listener: desk.listener });
  const scheduling = createSchedulingService(app.db);
  await app.integration.registerApiV1((v1, apiKeyName) => {
    registerConversationApi(v1, { service: conversations, apiKeyName });
    registerPhysicianApi(v1, { service: scheduling, apiKeyName });
  });
  registerConversationRoutes(app.api, conversations);
  registerSchedulingRoutes(app.api, scheduling);
}
