import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { ApiRouter } from '../../platform/api-routes.ts';
import type { Config } from '../../platform/config.ts';
import type { Database } from '../../platform/db/database.ts';
import { loadKnowledge } from '../intelligence/knowledge.ts';
import type { Bus } from '../../platform/bus.ts';
import { createKnowledgeRevisions, type KnowledgeRevisions } from './kb-revisions.ts';
import { registerAsyncJobsRoutes } from './routes.ts';
import { conditionFacts, demoTasks, findCondition } from './seed.ts';
import { createAsyncJobsService, type AsyncJobsService } from './service.ts';

/**
 * The asynchronous pipelines engine: its routes, the knowledge base that completed tasks revise
 * (the intelligence routes serve `revisions.knowledge`), and in demo mode (DEMO with the
 * development sign-in) tasks in every step, seeded once into an empty table from the KB.
 */
export async function registerAsyncJobs(
  api: ApiRouter,
  deps: { db: Database; config: Config; log: FastifyBaseLogger; bus?: Bus },
): Promise<{ service: AsyncJobsService; revisions: KnowledgeRevisions }> {
  const { db, config } = deps;
  // The KB_PATH file (cached: loaded once per process) plus the revisions in the database.
  const revisions = createKnowledgeRevisions({
    db,
    base: loadKnowledge(config.env.KB_PATH),
    log: deps.log,
    ...(deps.bus ? { bus: deps.bus } : {}),
  });
  await revisions.refresh();
  const knowledge = revisions.knowledge;
  const service = createAsyncJobsService(db, {
    leaseMs: config.env.JOB_LEASE_SECONDS * 1000,
    conditionFacts: (_pipeline, name, cui) => {
      const concept = findCondition(knowledge, name, cui);
      return concept ? conditionFacts(knowledge, concept) : undefined;
    },
    knowledge: revisions,
  });
  registerAsyncJobsRoutes(api, service, revisions);
  if (config.env.DEMO && config.devSignIn) {
    await seedDemoTasks(db, service, () => demoTasks(knowledge), deps.log);
  }
  return { service, revisions };
}

/** Seeds the demo tasks when the table is empty; a concurrent start seeds nothing twice. */
export async function seedDemoTasks(
  db: Database,
  service: AsyncJobsService,
  tasks: () => ReturnType<typeof demoTasks>,
  log: FastifyBaseLogger,
): Promise<number> {
  const seeded = await db.transaction().execute(async (trx) => {
    // One seeder at a time across nodes sharing the database.
    await sql`select pg_advisory_xact_lock(hashtext('async_tasks.seed'))`.execute(trx);
    const any = await trx.selectFrom('async_tasks').select('id').limit(1).executeTakeFirst();
    if (any) {
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
