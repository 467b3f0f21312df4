import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import * as foundation from './migrations/001-foundation.ts';
import * as jobs from './migrations/002-jobs.ts';
import * as technicianSessions from './migrations/004-technician-sessions.ts';
import * as integration from './migrations/005-integration.ts';
import * as asyncJobs from './migrations/006-async-jobs.ts';
import * as exceptions from './migrations/007-exceptions.ts';
import * as jobMaxAttempts from './migrations/010-job-max-attempts.ts';
import * as kbRevisions from './migrations/008-kb-revisions.ts';
import * as quinnRequests from './migrations/011-quinn-requests.ts';
import * as directHandOff from './migrations/012-direct-hand-off.ts';
import * as jobLastError from './migrations/013-job-last-error.ts';
import * as webhookTarget from './migrations/014-webhook-target.ts';
import * as webhookPerNode from './migrations/015-webhook-per-node.ts';
import * as asyncTaskDraft from './migrations/016-async-task-draft.ts';
import * as summaryReviews from './migrations/017-summary-reviews.ts';
import * as dataPreparation from './migrations/018-data-preparation.ts';
import * as conversationMemory from './migrations/019-conversation-memory.ts';
import * as messaging from './migrations/021-messaging.ts';
import * as analytics from './migrations/022-analytics.ts';
import * as assistantNotFound from './migrations/023-assistant-not-found.ts';
import * as authoring from './migrations/024-authoring.ts';
import * as agreement from './migrations/025-agreement.ts';
import * as analyticsOutcomes from './migrations/026-analytics-outcomes.ts';
import * as analyticsEdges from './migrations/027-analytics-edges.ts';
import * as analyticsAgreementDays from './migrations/028-analytics-agreement-days.ts';
import * as patientDataAudit from './migrations/029-patient-data-audit.ts';
import * as auditJournal from './migrations/031-audit-journal.ts';

/** Numbered migrations, applied in order at start. Add new ones at the end. */
const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-jobs': jobs,
  '004-technician-sessions': technicianSessions,
  '005-integration': integration,
  '006-async-jobs': asyncJobs,
  '007-exceptions': exceptions,
  '010-job-max-attempts': jobMaxAttempts,
  '008-kb-revisions': kbRevisions,
  '011-quinn-requests': quinnRequests,
  '012-direct-hand-off': directHandOff,
  '013-job-last-error': jobLastError,
  '014-webhook-target': webhookTarget,
  '015-webhook-per-node': webhookPerNode,
  '016-async-task-draft': asyncTaskDraft,
  '017-summary-reviews': summaryReviews,
  '018-data-preparation': dataPreparation,
  '019-conversation-memory': conversationMemory,
  '021-messaging': messaging,
  '022-analytics': analytics,
  '023-assistant-not-found': assistantNotFound,
  '024-authoring': authoring,
  '025-agreement': agreement,
  '026-analytics-outcomes': analyticsOutcomes,
  '027-analytics-edges': analyticsEdges,
  '028-analytics-agreement-days': analyticsAgreementDays,
  '029-patient-data-audit': patientDataAudit,
  '031-audit-journal': auditJournal,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};

/** Applies every pending migration; throws with the failing migration's name. */
export function migrateToLatest(database: DatabaseHandle): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateToLatest());
}

/**
 * Applies the migrations up to this one (by name order), as a database of an older release had
 * them: the drill that migrates a populated database forward starts there (drills/data-safety).
 */
export function migrateUpTo(database: DatabaseHandle, name: string): Promise<string[]> {
  if (!(name in MIGRATIONS)) {
    return Promise.reject(new Error(`There is no migration ${name}.`));
  }
  return migrate(database, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  database: DatabaseHandle,
  run: (migrator: Migrator) => ReturnType<Migrator['migrateToLatest']>,
): Promise<string[]> {
  // Name the schema: other schemas of the same database may hold their own migration tables.
  const migrator = new Migrator({
    db: database.db,
    provider,
    migrationTableSchema: database.schema,
    // Areas reserve their numbers and land in any order: a database that already ran a later
    // number still takes an earlier one that arrived after it.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await run(migrator);
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const name = failed ? ` in ${failed.migrationName}` : '';
    throw new Error(
      `Database migration failed${name}: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
