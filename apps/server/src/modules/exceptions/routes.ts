import type { FastifyRequest } from 'fastify';
import type { ExceptionQueue } from '@loopdesk/contracts/conversations.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import type { Database } from '../../platform/db/database.ts';
import { createSizeCache } from '../jobs/size-cache.ts';
import type { ExceptionDesk } from './desk.ts';
import { createExceptionsRepository } from './repository.ts';

const signedIn = (request: FastifyRequest) => {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
};

/** The exception desk over HTTP (spec 1 §7, spec 2 §7). */
export function registerExceptionRoutes(api: ApiRouter, desk: ExceptionDesk, db: Database): void {
  // The exceptions queues hold conversations waiting for a reviewer (issue 5), not jobs.
  const exceptionsRepo = createExceptionsRepository(db);
  const size = createSizeCache((queue: ExceptionQueue) => exceptionsRepo.queueSize(queue));
  api.route('GET /internal/queues/exceptions/_size', async () => ({
    size: await size('exceptions'),
  }));
  api.route('GET /internal/queues/exceptions-restricted/_size', async () => ({
    size: await size('exceptions-restricted'),
  }));

  api.route(
    'GET /internal/conversations/_queued',
    {
      docs: {
        tags: ['exceptions'],
        summary: 'The conversations you hold at the exception desk, and the one on your screen',
      },
    },
    async (request) => {
      const user = signedIn(request);
      const queued = await desk.queued(user.id);
      // The answer carries what the patients wrote of (their red flags): each read is audited.
      for (const item of queued.items) {
        await recordAudit(
          db,
          {
            action: 'conversation.queue.read',
            outcome: 'success',
            actorId: user.id,
            actorEmail: user.email,
            resourceType: 'conversation',
            resourceId: item.conversationId,
            statusCode: 200,
            details: { redFlags: item.redFlags ?? [] },
          },
          requestOrigin(request),
        );
      }
      return queued;
    },
  );

  api.route(
    'GET /internal/conversations/_dequeue',
    {
      docs: {
        tags: ['exceptions'],
        summary:
          'Take the oldest waiting conversation now (your session must be on; within your capacity)',
      },
    },
    async (request) => ({ item: await desk.dequeue(signedIn(request)) }),
  );

  api.route(
    'POST /internal/conversations/:id/_respond',
    {
      docs: {
        tags: ['exceptions'],
        summary: 'Send a manual reply (reply type MANUAL) in a conversation you hold',
      },
    },
    async (request, reply) => {
      const user = signedIn(request);
      const { id } = request.params;
      const { body } = request;
      if (body.conversationId !== undefined && body.conversationId !== id) {
        throw badRequest(
          `The body names the conversation ${body.conversationId} but the path ${id}: they must be the same.`,
          [{ path: 'body.conversationId', message: 'must be the conversation of the path' }],
        );
      }
      const { conversation, message } = await desk.service.respond(
        user,
        { ...body, conversationId: id },
        requestOrigin(request),
      );
      await desk.replied(conversation, message);
      return reply.status(201).send(message);
    },
  );
}
