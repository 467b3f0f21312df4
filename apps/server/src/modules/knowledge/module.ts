import fp from 'fastify-plugin';
import type { Knowledge } from './knowledge.ts';
import { loadKnowledge } from './knowledge.ts';
import { createKnowledgeRevisions, type KnowledgeRevisions } from './revisions.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The served knowledge base (KB_PATH plus its revisions): every revision shows at once. */
    knowledge: Knowledge;
    /** Revising the knowledge base: completed async tasks write back through it. */
    knowledgeRevisions: KnowledgeRevisions;
  }
}

/**
 * The clinical knowledge base: loaded from KB_PATH once per file version (a broken one stops the
 * start with its problems), revised by approved async-pipeline work (`kb_revisions`, replayed at
 * start and on every node through the bus). Intelligence serves it; async-jobs revises it.
 */
export default fp(
  async (app) => {
    const revisions = createKnowledgeRevisions({
      db: app.db,
      base: loadKnowledge(app.config.env.KB_PATH),
      log: app.log,
      bus: app.bus,
    });
    await revisions.refresh();
    app.addHook('onClose', () => {
      revisions.close();
      return Promise.resolve();
    });
    app.decorate('knowledge', revisions.knowledge);
    app.decorate('knowledgeRevisions', revisions);
  },
  { name: 'knowledge', dependencies: ['platform'] },
);
