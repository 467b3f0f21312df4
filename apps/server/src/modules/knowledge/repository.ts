import { sql } from 'kysely';
import type { Database } from '../../platform/db/database.ts';

/** SQL over `kb_revisions`: the changes approved work made to the knowledge base, in order. */
export function createKnowledgeRepository(db: Database) {
  return {
    /** The revisions after `after`, oldest first (in a transaction: `executor` is the trx). */
    newer(after: number, executor: Database = db) {
      return executor
        .selectFrom('kb_revisions')
        .select(['revision', 'change'])
        .where('revision', '>', after)
        .orderBy('revision')
        .execute();
    },

    /** One writer of revisions at a time across nodes, until `trx` ends. */
    async lock(trx: Database): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtext('kb_revisions'))`.execute(trx);
    },

    /** Inserts a revision; its number follows the commit order (see `lock`). */
    async insert(
      trx: Database,
      row: {
        taskId: string | null;
        pipelineId: number | null;
        /** A document whose approved annotations made the change (issue 13), else null. */
        documentKey?: string | null;
        baseVersion: string;
        change: unknown;
        summary: unknown;
        createdBy: string;
      },
    ): Promise<number> {
      const inserted = await trx
        .insertInto('kb_revisions')
        .values({
          task_id: row.taskId,
          pipeline_id: row.pipelineId,
          document_key: row.documentKey ?? null,
          base_version: row.baseVersion,
          change: JSON.stringify(row.change),
          summary: JSON.stringify(row.summary),
          created_by: row.createdBy,
        })
        .returning('revision')
        .executeTakeFirstOrThrow();
      return inserted.revision;
    },

    /** Every revision with the email of whoever approved it. */
    list() {
      return db
        .selectFrom('kb_revisions')
        .leftJoin('users', 'users.id', 'kb_revisions.created_by')
        .select([
          'kb_revisions.revision',
          'kb_revisions.task_id',
          'kb_revisions.pipeline_id',
          'kb_revisions.document_key',
          'kb_revisions.base_version',
          'kb_revisions.summary',
          'kb_revisions.created_at',
          'users.email',
        ])
        .orderBy('kb_revisions.revision')
        .execute();
    },
  };
}

export type KnowledgeRepository = ReturnType<typeof createKnowledgeRepository>;
