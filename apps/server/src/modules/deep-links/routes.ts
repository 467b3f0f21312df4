import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { JoinQuery } from '@loopdesk/contracts/deep-links.ts';
import type { ApiRouter, ApiV1Registrar } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { AppError, unauthorized } from '../../platform/errors.ts';
import type { DeepLinksService } from './service.ts';

/** Where a link lands when no patient app is configured (DEEP_LINK_BASE_URL). */
export const JOIN_PATH = '/telehealth/join';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;

/** Staff make links on `/internal`; the patient app checks them on `/api/v1`; people land on the join page. */
export function registerDeepLinkRoutes(
  app: FastifyInstance,
  api: ApiRouter,
  service: DeepLinksService,
) {
  api.route(
    'POST /internal/deep-links',
    { docs: { tags: ['deep-links'], summary: 'Sign a telehealth deep link (docs/deep-links.md)' } },
    async (request, reply) => {
      if (!request.user) {
        throw unauthorized('Sign in first.');
      }
      const link = await service.create(request.body, request.user, requestOrigin(request));
      return reply.status(201).send(link);
    },
  );

  // The page a link opens when no patient app is configured: it checks the link and says so.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(JOIN_PATH, { schema: { hide: true, querystring: JoinQuery } }, async (request, reply) => {
      try {
        const claims = await service.verify(
          request.query.token ?? '',
          undefined,
          'join page',
          requestOrigin(request),
        );
        const what =
          claims.purpose === 'telehealth.appointment' ? 'your video visit' : 'your conversation';
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              'Your telehealth link is valid',
              `Open this link on the phone where the clinic's app is installed to join ${what}. It works until ${claims.expiresAt}.`,
            ),
          );
      } catch (error) {
        if (error instanceof AppError) {
          return reply
            .status(error.statusCode)
            .type('text/html; charset=utf-8')
            .send(page('This link cannot be used', error.message));
        }
        throw error;
      }
    });
}

/** `POST /api/v1/deep-links/_verify`: the patient app checks a link before it opens anything. */
export function registerDeepLinkApi(v1: ApiV1Registrar, service: DeepLinksService): void {
  v1.registerApiV1(
    'POST /api/v1/deep-links/_verify',
    {
      docs: {
        tags: ['deep-links'],
        summary: 'Check a telehealth deep link: its signature, expiry and purpose',
      },
    },
    async (request) =>
      service.verify(
        request.body.token,
        request.body.purpose,
        v1.apiKeyName(request),
        requestOrigin(request),
      ),
  );
}
