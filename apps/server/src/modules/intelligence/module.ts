import fp from 'fastify-plugin';
import { registerConversationDifferential } from './conversation-differential.ts';
import { registerNlpRoutes } from './nlp-routes.ts';
import { createRedFlagFinder } from './red-flags.ts';
import { registerIntelligenceRoutes } from './routes.ts';

/**
 * Clinical intelligence over the served knowledge base (the knowledge module, revised while the
 * server runs): typeahead, ontology, clinical inference and NLP routes, and the differential of
 * a stored conversation (read through the conversations module's repository), and the red-flag
 * finder it lends the conversations module.
 */
export default fp(
  (app) => {
    const { api, config, db, knowledge } = app;
    registerIntelligenceRoutes(api, knowledge);
    registerNlpRoutes(api, knowledge, { maxTextChars: config.env.NLP_MAX_TEXT_CHARS });
    registerConversationDifferential(api, { db, knowledge });
    // The desk's transcripts and queue mark the red flags in what patients write (issue 20).
    app.conversations.redFlags.use(createRedFlagFinder(knowledge));
    return Promise.resolve();
  },
  { name: 'intelligence', dependencies: ['platform', 'knowledge', 'conversations'] },
);
