import fp from 'fastify-plugin';
import { registerConversationDifferential } from './conversation-differential.ts';
import { registerNlpRoutes } from './nlp-routes.ts';
import { registerIntelligenceRoutes } from './routes.ts';

/**
 * Clinical intelligence over the served knowledge base (the knowledge module, revised while the
 * server runs): typeahead, ontology, clinical inference and NLP routes, and the differential of
 * a stored conversation (read through the conversations module's repository).
 */
export default fp(
  (app) => {
    const { api, config, db, knowledge } = app;
    registerIntelligenceRoutes(api, knowledge);
    registerNlpRoutes(api, knowledge, { maxTextChars: config.env.NLP_MAX_TEXT_CHARS });
    registerConversationDifferential(api, { db, knowledge });
    return Promise.resolve();
  },
  { name: 'intelligence', dependencies: ['platform', 'knowledge', 'conversations'] },
);
