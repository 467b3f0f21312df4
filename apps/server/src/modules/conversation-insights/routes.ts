import type { FastifyRequest } from 'fastify';
import { TENANT_HEADER } from '@loopdesk/contracts/conversations.ts';
import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { badRequest, unauthorized } from '../../platform/errors.ts';
import type { InsightsService } from './service.ts';

const userOf = (request: FastifyRequest) => {
  if (!request.user) {
    throw unauthorized('Sign in first.');
  }
  return request.user;
};

const tenantOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[TENANT_HEADER];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/** The conversation visualiser's reads (spec 3 §7; issue 14): thin handlers over the service. */
export function registerInsightsRoutes(api: ApiRouter, service: InsightsService): void {
  api.route(
    'GET /internal/conversations/:id/memory',
    { docs: { tags: ['conversations'], summary: 'The memory graph of a conversation (s, p)' } },
    async (request) =>
      service.memory(
        request.params.id,
        request.query,
        userOf(request),
        tenantOf(request),
        requestOrigin(request),
      ),
  );

  api.route(
    'GET /internal/conversations/_search',
    {
      docs: {
        tags: ['conversations'],
        summary:
          'Find conversations by patient name, id, dates, finding or condition and status (paged, newest first)',
      },
    },
    async (request) =>
      service.search(request.query, userOf(request), tenantOf(request), requestOrigin(request)),
  );

  api.route(
    'GET /internal/conversations/:id/_reads',
    {
      docs: {
        tags: ['conversations'],
        summary: 'Who read this conversation and when (its audit trail), newest first',
      },
    },
    async (request) =>
      service.reads(request.params.id, userOf(request), tenantOf(request), requestOrigin(request)),
  );

  api.route(
    'GET /internal/intelligence/demo/conversations',
    {
      docs: {
        tags: ['conversations'],
        summary: 'The newest conversations, for the visualiser’s dropdown',
      },
    },
    async (request) => service.latest(userOf(request), tenantOf(request), requestOrigin(request)),
  );

  api.route(
    'GET /internal/intelligence/conversations/:id/clinical_summaries/_current',
    {
      docs: {
        tags: ['conversations'],
        summary:
          'The latest reviewed clinical summary, or one composed from the memory (reviewed: false)',
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      if (tenant === undefined) {
        throw badRequest(
          `Send the ${TENANT_HEADER} header: the tenant of the conversation whose summary you read.`,
          [{ path: `headers.${TENANT_HEADER}`, message: 'is required' }],
        );
      }
      return service.currentSummary(
        request.params.id,
        userOf(request),
        tenant,
        requestOrigin(request),
      );
    },
  );
}
