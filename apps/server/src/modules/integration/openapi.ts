import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Paths the OpenAPI document describes: the assistant's API and its administration. */
const DOCUMENTED = ['/api/v1/', '/internal/integration/'];

/**
 * The OpenAPI 3.1 document at `/docs/json` and Swagger UI at `/docs`, generated from the zod
 * schemas of the routes (packages/contracts). Register before the routes it should list.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  options: { version: string; publicUrl: string },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loopdesk integration API',
        version: options.version,
        description:
          'The assistant sends jobs with an API key and reads results from a pull feed or its webhook. See docs/integration-api.md.',
      },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key `ldk_<prefix>_<secret>` created by an admin.',
          },
          staffToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A staff access token with the privilege users:permissions:update.',
          },
        },
      },
      tags: [
        { name: 'jobs', description: 'Create, read and cancel jobs' },
        { name: 'events', description: 'The outbox as a pull feed' },
        {
          name: 'requests',
          description: "The portal's questions to the assistant: read them, answer them",
        },
        { name: 'admin', description: 'API keys and webhook deliveries (staff admins)' },
      ],
    },
    transform: (input) => {
      if (!DOCUMENTED.some((prefix) => input.url.startsWith(prefix))) {
        return { schema: { hide: true }, url: input.url };
      }
      return jsonSchemaTransform(input);
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
}
