import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import { registerConversationDifferential } from './conversation-differential.ts';
import { loadKnowledge, type Knowledge } from './knowledge.ts';
import { registerNlpRoutes } from './nlp-routes.ts';
import { registerIntelligenceRoutes } from './routes.ts';

/**
 * Loads the knowledge base from KB_PATH once (a broken one stops the start with its problems),
 * builds the concept index, recogniser and differential model, and registers the typeahead,
 * ontology, clinical inference and NLP routes; with the database, also the differential of a
 * stored conversation.
 */
export function registerIntelligence(
  api: ApiRouter,
  config: Config,
  // The app's live knowledge (revised by approved async-pipeline work), when it has one.
  knowledge: Knowledge = loadKnowledge(config.env.KB_PATH),
  deps: { db?: Database } = {},
): void {
  registerIntelligenceRoutes(api, knowledge);
  registerNlpRoutes(api, knowledge, { maxTextChars: config.env.NLP_MAX_TEXT_CHARS });
  if (deps.db) {
    registerConversationDifferential(api, { db: deps.db, knowledge });
  }
}
