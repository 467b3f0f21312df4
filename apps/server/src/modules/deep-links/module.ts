import fp from 'fastify-plugin';
import { deepLinkKey } from './signature.ts';
import { JOIN_PATH, registerDeepLinkApi, registerDeepLinkRoutes } from './routes.ts';
import { createDeepLinksService } from './service.ts';

/**
 * Telehealth deep links (issue 15 item 7, docs/deep-links.md): staff sign a link to one
 * appointment's video visit or one conversation, for one patient, until it expires; the patient
 * app checks it on `/api/v1/deep-links/_verify`, and the join page refuses a forged or expired one.
 */
export default fp(
  (app) => {
    const { env } = app.config;
    const service = createDeepLinksService(app.db, {
      key: deepLinkKey(env.DEEP_LINK_SECRET, app.config.sessionSecret),
      baseUrl: env.DEEP_LINK_BASE_URL || `${app.config.publicUrl}${JOIN_PATH}`,
    });
    registerDeepLinkRoutes(app, app.api, service);
    registerDeepLinkApi(app.integration, service);
    return Promise.resolve();
  },
  { name: 'deep-links', dependencies: ['platform', 'integration', 'conversations'] },
);
