import type { FastifyBaseLogger } from 'fastify';
import type { KnowledgeBase } from '@loopdesk/clinical/kb/format.ts';
import { KbChange, reviseKnowledgeBase } from '@loopdesk/clinical/kb/revise.ts';
import { type AsyncTask } from '@loopdesk/contracts/async-jobs.ts';
import {
  KnowledgeRevisionSummary,
  type KnowledgeRevisionList,
} from '@loopdesk/contracts/knowledge-revisions.ts';
import type { Bus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db/database.ts';
import { buildKnowledge, createLiveKnowledge, type Knowledge } from './knowledge.ts';
import { createKnowledgeRepository } from './repository.ts';
import { writeBackOf, type WriteBack } from './write-back.ts';

/**
 * The served clinical knowledge base: the KB_PATH file plus every revision in `kb_revisions`,
 * applied in order. A completed task's write-back is a new revision, inserted in the task's
 * completing transaction (so both happen or neither); every node then applies it, this one at
 * once and the others on the bus event, and restarts replay them all.
 */
export function createKnowledgeRevisions(deps: {
  db: Database;
  base: Knowledge;
  bus?: Bus;
  log: FastifyBaseLogger;
}) {
  const { db, base, log } = deps;
  const live = createLiveKnowledge(base, log);
  let served: KnowledgeBase = base.kb;
  let applied = 0;
  const skipped = new Set<number>();
  let queue: Promise<unknown> = Promise.resolve();
  const versionOf = (revision: number) => `${base.kb.kbVersion}+rev.${revision}`;

  /** The revisions after `from` applied to `kb`; one that no longer applies is skipped. */
  const replay = (
    kb: KnowledgeBase,
    rows: readonly { revision: number; change: unknown }[],
    onSkip: (revision: number, error: unknown) => void,
  ): KnowledgeBase => {
    let next = kb;
    for (const row of rows) {
      try {
        next = reviseKnowledgeBase(next, KbChange.parse(row.change), versionOf(row.revision));
      } catch (error) {
        onSkip(row.revision, error);
      }
    }
    return next;
  };
  const repo = createKnowledgeRepository(db);
  const newer = (executor: Database) => repo.newer(applied, executor);

  /** Serves the revisions this node has not applied yet (one refresh at a time). */
  const refresh = (): Promise<void> => {
    const run = queue.then(async () => {
      const rows = await newer(db);
      const last = rows.at(-1);
      if (!last) {
        return;
      }
      const next = replay(served, rows, (revision, error) => {
        skipped.add(revision);
        log.error(
          { err: error, revision },
          'a knowledge-base revision no longer applies to KB_PATH; it is skipped',
        );
      });
      applied = last.revision;
      served = next;
      live.replace(next);
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const unsubscribe = deps.bus?.subscribe('knowledge.revised', ({ revision }) => {
    if (revision > applied) {
      refresh().catch((error: unknown) => log.error({ err: error }, 'knowledge refresh failed'));
    }
  });

  async function recordChange(
    trx: Database,
    writeBackFor: (knowledge: Knowledge) => WriteBack | null,
    userId: string,
    source: { taskId: string; pipelineId: number } | { documentKey: string },
  ): Promise<{ revision: number; kbVersion: string } | null> {
    await repo.lock(trx);
    // Revisions another node committed that this one has not applied yet.
    const pending = await newer(trx);
    const kb = pending.length > 0 ? replay(served, pending, () => undefined) : served;
    const knowledge = pending.length > 0 ? buildKnowledge(base.path, kb) : live.knowledge;
    const writeBack = writeBackFor(knowledge);
    if (!writeBack) {
      return null;
    }
    // Throws (and the work stays where it was) when the result would break the KB.
    reviseKnowledgeBase(kb, writeBack.change, 'check');
    const revision = await repo.insert(trx, {
      taskId: 'taskId' in source ? source.taskId : null,
      pipelineId: 'pipelineId' in source ? source.pipelineId : null,
      documentKey: 'documentKey' in source ? source.documentKey : null,
      baseVersion: kb.kbVersion,
      change: writeBack.change,
      summary: writeBack.summary,
      createdBy: userId,
    });
    return { revision, kbVersion: versionOf(revision) };
  }

  return {
    /** The knowledge the intelligence routes serve: every revision shows at once. */
    knowledge: live.knowledge,
    refresh,

    /**
     * In a task's completing transaction: writes its change to the knowledge base as a new
     * revision, or nothing when it changes nothing. Revisions are numbered in commit order.
     */
    record(
      trx: Database,
      task: AsyncTask,
      userId: string,
    ): Promise<{ revision: number; kbVersion: string } | null> {
      return recordChange(trx, (knowledge) => writeBackOf(task, knowledge), userId, {
        taskId: task.id,
        pipelineId: task.lock.pipeline,
      });
    },

    /**
     * In the transaction of other approved work (a document's annotations, issue 13): the change
     * `writeBack` makes to the knowledge base as served now (revisions other nodes committed
     * included), as a new revision with `source` as its provenance; nothing when it changes
     * nothing. Throws when the change would break the knowledge base.
     */
    recordChange,

    /** After the completing transaction: serve the new version here and tell the other nodes. */
    async published(): Promise<void> {
      await refresh();
      await deps.bus?.publish('knowledge.revised', { revision: applied });
    },

    async list(): Promise<KnowledgeRevisionList> {
      const rows = await repo.list();
      return {
        kbVersion: live.knowledge.kb.kbVersion,
        revisions: rows.map((row) => ({
          revision: row.revision,
          kbVersion: versionOf(row.revision),
          baseVersion: row.base_version,
          taskId: row.task_id,
          pipelineId: row.pipeline_id,
          documentKey: row.document_key,
          createdAt: new Date(row.created_at).toISOString(),
          createdBy: row.email ?? null,
          summary: KnowledgeRevisionSummary.parse(row.summary),
          applied: row.revision <= applied && !skipped.has(row.revision),
        })),
      };
    },

    close(): void {
      unsubscribe?.();
    },
  };
}

export type KnowledgeRevisions = ReturnType<typeof createKnowledgeRevisions>;
