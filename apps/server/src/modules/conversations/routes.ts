import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@loopdesk/contracts/errors.ts';
import {
  AppendMessageBody,
  ConversationIdParams,
  ConversationMessage,
  ConversationView,
  HandoverBody,
  PutConfigurationBody,
  PutConversationBody,
  TENANT_HEADER,
  TenantConfiguration,
} from '@loopdesk/contracts/conversations.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { ConversationsService } from './service.ts';

const apiKeySecurity = [{ apiKey: [] }];

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
 * The assistant's conversation calls under /api/v1 (registered inside the integration plugin,
 * behind its API keys): register a conversation, append messages, hand it to humans.
 */
export function registerConversationApi(
  v1: FastifyInstance,
  deps: { service: ConversationsService; apiKeyName: (request: FastifyRequest) => string },
): void {
  const app = v1.withTypeProvider<ZodTypeProvider>();
  const { service } = deps;
  const actor = (request: FastifyRequest) => ({
    userId: null,
    email: null,
    apiKey: deps.apiKeyName(request),
  });

  app.put(
    '/conversations/:id',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Register a conversation and its patient (a safe retry; updates names)',
        security: apiKeySecurity,
        params: ConversationIdParams,
        body: PutConversationBody,
        response: { 200: ConversationView, 201: ConversationView, ...errorResponses([409]) },
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

  app.get(
    '/conversations/:id',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Read a conversation: who holds it (bot, queue or a reviewer) and its status',
        security: apiKeySecurity,
        params: ConversationIdParams,
        response: { 200: ConversationView, ...errorResponses([404]) },
      },
    },
    async (request) => {
      actor(request);
      return service.get(request.params.id);
    },
  );

  app.post(
    '/conversations/:id/messages',
    {
      schema: {
        tags: ['conversations'],
        summary:
          'Append the patient’s (IN) or the assistant’s (OUT) message; OUT is refused (409) while humans hold the conversation',
        security: apiKeySecurity,
        params: ConversationIdParams,
        body: AppendMessageBody,
        response: {
          200: ConversationMessage,
          201: ConversationMessage,
          ...errorResponses([404, 409]),
        },
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

  app.post(
    '/conversations/:id/handover',
    {
      schema: {
        tags: ['conversations'],
        summary:
          'Hand the conversation to humans: it waits in an exceptions queue and the assistant stays silent until it is handed back or ended',
        security: apiKeySecurity,
        params: ConversationIdParams,
        body: HandoverBody,
        response: { 200: ConversationView, ...errorResponses([404, 409]) },
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

  app.put(
    '/configurations/:id',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Register a tenant’s configuration (EMR record links, timezone)',
        security: apiKeySecurity,
        params: ConversationIdParams,
        body: PutConfigurationBody,
        response: { 200: TenantConfiguration },
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
