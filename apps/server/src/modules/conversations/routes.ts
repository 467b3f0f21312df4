import type { FastifyRequest } from 'fastify';
import { TENANT_HEADER } from '@loopdesk/contracts/conversations.ts';
import type { ApiRouter, ApiV1Registrar } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { ConversationsService } from './service.ts';

const tenantOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[TENANT_HEADER];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

const signedIn = (request: FastifyRequest) => {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
};

/** Transcripts, person summaries and tenant configurations for the portal (spec 2 §7). */
export function registerConversationRoutes(api: ApiRouter, service: ConversationsService): void {
  api.route(
    'GET /internal/conversations/:id/messages',
    {
      docs: {
        tags: ['conversations'],
        summary: 'A page of the transcript (order=createdOn&s=&p=) or its tail (last={id}&s=100)',
      },
    },
    async (request) => {
      const { id } = request.params;
      return service.messages(
        id,
        request.query,
        signedIn(request),
        tenantOf(request),
        requestOrigin(request),
      );
    },
  );

  api.route(
    'GET /internal/consumers/:id',
    {
      docs: {
        tags: ['conversations'],
        summary: 'Person summary of a patient (o=full adds tenant, email and createdOn)',
      },
    },
    async (request) => {
      const { id } = request.params;
      const { o } = request.query;
      return service.consumer(
        id,
        o === 'full',
        signedIn(request),
        tenantOf(request),
        requestOrigin(request),
      );
    },
  );

  api.route(
    'GET /internal/configurations/:id',
    {
      docs: {
        tags: ['conversations'],
        summary: 'A tenant’s configuration: EMR record links and the clinic’s timezone',
      },
    },
    async (request) => service.configuration(request.params.id, tenantOf(request)),
  );
}

/**
 * The assistant's conversation calls under /api/v1 (routes of the table, behind the integration
 * API's keys): register a conversation, append messages, hand it to humans.
 */
export function registerConversationApi(v1: ApiV1Registrar, service: ConversationsService): void {
  const actor = (request: FastifyRequest) => ({
    userId: null,
    email: null,
    apiKey: v1.apiKeyName(request),
  });

  v1.registerApiV1(
    'PUT /api/v1/conversations/:id',
    {
      docs: {
        tags: ['conversations'],
        summary: 'Register a conversation and its patient (a safe retry; updates names)',
      },
    },
    async (request, reply) => {
      const { conversation, created } = await service.put(
        request.params.id,
        request.body,
        actor(request),
        requestOrigin(request),
      );
      return reply.status(created ? 201 : 200).send(conversation);
    },
  );

  v1.registerApiV1(
    'GET /api/v1/conversations/:id',
    {
      docs: {
        tags: ['conversations'],
        summary: 'Read a conversation: who holds it (bot, queue or a reviewer) and its status',
      },
    },
    async (request) => {
      actor(request);
      return service.get(request.params.id);
    },
  );

  v1.registerApiV1(
    'POST /api/v1/conversations/:id/messages',
    {
      docs: {
        tags: ['conversations'],
        summary:
          'Append the patient’s (IN) or the assistant’s (OUT) message; OUT is refused (409) while humans hold the conversation',
      },
    },
    async (request, reply) => {
      const { message, created } = await service.append(
        request.params.id,
        request.body,
        actor(request),
        requestOrigin(request),
      );
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  v1.registerApiV1(
    'POST /api/v1/conversations/:id/handover',
    {
      docs: {
        tags: ['conversations'],
        summary:
          'Hand the conversation to humans: it waits in an exceptions queue and the assistant stays silent until it is handed back or ended',
      },
    },
    async (request) =>
      (
        await service.handover(
          request.params.id,
          request.body,
          actor(request),
          requestOrigin(request),
        )
      ).conversation,
  );

  v1.registerApiV1(
    'PUT /api/v1/configurations/:id',
    {
      docs: {
        tags: ['conversations'],
        summary: 'Register a tenant’s configuration (EMR record links, timezone)',
      },
    },
    async (request) =>
      service.putConfiguration(
        request.params.id,
        request.body,
        actor(request),
        requestOrigin(request),
      ),
  );
}
