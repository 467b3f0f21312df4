import { sql, type Selectable, type Transaction } from 'kysely';
import type { SummaryDocument } from '@loopdesk/contracts/summaries.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB, SummaryReviewsTable } from '../../platform/db/schema.ts';

export type ReviewRow = Selectable<SummaryReviewsTable>;
type Executor = Database | Transaction<DB>;

/** A reviewer's version of a note, as saved. */
export interface SavedVersion {
  jobId: string;
  tenant: string;
  conversationId: string;
  document: SummaryDocument;
  sourceName: string;
  sourceVersion: string;
  userId: string;
}

/** SQL over `summary_reviews` (migration 017): the reviewers' versions of the summary jobs' notes. */
export function createSummaryReviewsRepository(db: Database) {
  return {
    find(jobId: string, trx: Executor = db): Promise<ReviewRow | undefined> {
      return trx
        .selectFrom('summary_reviews')
        .selectAll()
        .where('job_id', '=', jobId)
        .executeTakeFirst();
    },

    /** Keeps the reviewer's version (replacing the last saved one); `sent` also marks it sent. */
    async save(version: SavedVersion, sent: boolean, trx: Executor = db): Promise<ReviewRow> {
      const values = {
        document: JSON.stringify(version.document),
        source_name: version.sourceName,
        source_version: version.sourceVersion,
        saved_by: version.userId,
        saved_at: sql<Date>`now()`,
        ...(sent ? { sent_by: version.userId, sent_at: sql<Date>`now()` } : {}),
      };
      return trx
        .insertInto('summary_reviews')
        .values({
          job_id: version.jobId,
          tenant: version.tenant,
          conversation_id: version.conversationId,
          ...values,
        })
        .onConflict((oc) => oc.column('job_id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The latest sent note of a conversation, with the email of who sent it. */
    latestSent(tenant: string, conversationId: string, trx: Executor = db) {
      return trx
        .selectFrom('summary_reviews')
        .innerJoin('users', 'users.id', 'summary_reviews.sent_by')
        .select([
          'summary_reviews.document',
          'summary_reviews.sent_at',
          'users.email as sent_by_email',
        ])
        .where('summary_reviews.tenant', '=', tenant)
        .where('summary_reviews.conversation_id', '=', conversationId)
        .where('summary_reviews.sent_at', 'is not', null)
        .orderBy('summary_reviews.sent_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
  };
}

export type SummaryReviewsRepository = ReturnType<typeof createSummaryReviewsRepository>;
