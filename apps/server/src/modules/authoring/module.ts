import fp from 'fastify-plugin';
import { registerAuthoringRoutes } from './routes.ts';
import { createAuthoringService } from './service.ts';

/**
 * Authoring tasks and document annotation (spec 2 §2, §4, §5, §7; issue 13): approved guideline
 * documents are annotated (held by one annotator at a time, draft, submit), reviewed by someone
 * else (four eyes), and what is approved becomes a new version of the knowledge base with the
 * document as provenance (docs/authoring.md). The documents are data preparation's.
 */
export default fp(
  (app) => {
    const service = createAuthoringService({
      db: app.db,
      knowledge: app.knowledge,
      revisions: app.knowledgeRevisions,
      leaseMs: app.config.env.JOB_LEASE_SECONDS * 1000,
    });
    registerAuthoringRoutes(app.api, service);
    return Promise.resolve();
  },
  { name: 'authoring', dependencies: ['platform', 'knowledge', 'data-preparation'] },
);
