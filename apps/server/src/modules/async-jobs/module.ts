import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../platform/db/database.ts';
import { createDraftService } from './drafts.ts';
import { createAsyncTasksRepository } from './repository.ts';
import { registerAsyncJobsRoutes } from './routes.ts';
import { conditionFacts, demoTasks, findCondition } from './seed.ts';
import { createAsyncJobsService, type AsyncJobsService } from './service.ts';

/**
 * The asynchronous pipelines engine (`/internal/async-jobs`): completed tasks revise the
 * knowledge base (the knowledge module), and in demo mode (DEMO with the development sign-in)
 * tasks in every step are seeded once into an empty table from the KB.
 */
export default fp(
  async (app) => {
    const { db, config, knowledge, knowledgeRevisions } = app;
    const service = createAsyncJobsService(db, {
      leaseMs: config.env.JOB_LEASE_SECONDS * 1000,
      conditionFacts: (_pipeline, name, cui) => {
        const concept = findCondition(knowledge, name, cui);
        return concept ? conditionFacts(knowledge, concept) : undefined;
      },
      knowledge: knowledgeRevisions,
    });
    registerAsyncJobsRoutes(app.api, service, knowledgeRevisions, createDraftService(db));
    if (config.env.DEMO && config.devSignIn) {
      await seedDemoTasks(db, service, () => demoTasks(knowledge), app.log);
    }
  },
  { name: 'async-jobs', dependencies: ['platform', 'knowledge'] },
);

/** Seeds the demo tasks when the table is empty; a concurrent start seeds nothing twice. */
export async function seedDemoTasks(
  db: Database,
  service: AsyncJobsService,
  tasks: () => ReturnType<typeof demoTasks>,
  log: FastifyBaseLogger,
): Promise<number> {
  const repo = createAsyncTasksRepository(db);
  const seeded = await db.transaction().execute(async (trx) => {
    if (await repo.lockSeedAndHasAny(trx)) {
      return 0;
    }
    const list = tasks();
    for (const task of list) {
      await service.insert(task, trx);
    }
    return list.length;
  });
  if (seeded > 0) {
    log.info({ tasks: seeded }, 'seeded demo async tasks');
  }
  return seeded;
}
