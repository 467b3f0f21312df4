import { sql, type Transaction } from 'kysely';
import type {
  DataPreparationJob,
  DataPreparationStatus,
} from '@loopdesk/contracts/data-preparation.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';

type Executor = Database | Transaction<DB>;

/** What the authoring side reads of a `data_preparation_documents` row (migrations 018, 024). */
export interface AuthoringRow {
  readonly key: string;
  readonly code: string;
  readonly status: DataPreparationStatus;
  readonly job: DataPreparationJob;
  readonly extracted_text: string;
  readonly lease_holder: string | null;
  readonly lease_expires_at: Date | null;
  readonly hold_purpose: 'annotation' | 'review' | null;
  readonly annotation_version: number;
  /** Everyone who saved a draft or submitted annotations of the document (four eyes). */
  readonly annotators: string[];
  readonly annotated_by: string | null;
  readonly annotation_reviewed_by: string | null;
  readonly updated_at: Date;
}

const COLUMNS = sql`
  key, code, status, job, extracted_text, lease_holder, lease_expires_at, hold_purpose,
  annotation_version, annotators, annotated_by, annotation_reviewed_by, updated_at
`;

/** The SQL of the authoring side of the data-preparation documents. */
export function createAuthoringRepository(db: Database) {
  return {
    async list(statuses: readonly DataPreparationStatus[]): Promise<AuthoringRow[]> {
      const { rows } = await sql<AuthoringRow>`
        select ${COLUMNS} from data_preparation_documents
        where status in (${sql.join(statuses)})
        order by created_at, key
      `.execute(db);
      return rows;
    },

    async find(key: string, trx: Executor = db, lock = false): Promise<AuthoringRow | null> {
      const { rows } = await sql<AuthoringRow>`
        select ${COLUMNS} from data_preparation_documents where key = ${key}
        ${lock ? sql`for update` : sql``}
      `.execute(trx);
      return rows[0] ?? null;
    },

    /** The emails of these user ids (ids that are not users, such as 'demo:preparer', have none). */
    async emails(ids: readonly string[], trx: Executor = db): Promise<Map<string, string>> {
      const wanted = [...new Set(ids)].filter((id) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
      );
      if (wanted.length === 0) {
        return new Map();
      }
      const { rows } = await sql<{ id: string; email: string }>`
        select id::text as id, email from users where id::text in (${sql.join(wanted)})
      `.execute(trx);
      return new Map(rows.map((row) => [row.id, row.email]));
    },

    /** Holds the job for `holder` until now + leaseMs. */
    async hold(
      key: string,
      holder: string,
      purpose: 'annotation' | 'review',
      leaseMs: number,
      trx: Executor,
    ): Promise<void> {
      await sql`
        update data_preparation_documents
        set lease_holder = ${holder}, hold_purpose = ${purpose},
            lease_expires_at = now() + (${leaseMs}::integer * interval '1 millisecond')
        where key = ${key}
      `.execute(trx);
    },

    async release(key: string, trx: Executor): Promise<void> {
      await sql`
        update data_preparation_documents
        set lease_holder = null, lease_expires_at = null, hold_purpose = null
        where key = ${key}
      `.execute(trx);
    },

    /** A save of the annotations: the next version, the hold ended. */
    async write(
      key: string,
      change: {
        status: DataPreparationStatus;
        job: DataPreparationJob;
        version: number;
        /** Who saved a draft or submitted (joins the annotators). */
        annotator?: string;
        /** Who submitted. */
        annotatedBy?: string;
        reviewedBy?: string;
      },
      trx: Executor,
    ): Promise<void> {
      await sql`
        update data_preparation_documents
        set status = ${change.status}, job = ${JSON.stringify(change.job)}::jsonb,
            annotation_version = ${change.version},
            annotators = case
              when ${change.annotator ?? null}::text is null
                or annotators @> jsonb_build_array(${change.annotator ?? null}::text)
              then annotators
              else annotators || jsonb_build_array(${change.annotator ?? null}::text) end,
            annotated_by = coalesce(${change.annotatedBy ?? null}::text, annotated_by),
            annotated_at = case when ${change.annotatedBy ?? null}::text is null
              then annotated_at else now() end,
            annotation_reviewed_by = coalesce(${change.reviewedBy ?? null}::text, annotation_reviewed_by),
            annotation_reviewed_at = case when ${change.reviewedBy ?? null}::text is null
              then annotation_reviewed_at else now() end,
            lease_holder = null, lease_expires_at = null, hold_purpose = null,
            updated_at = now()
        where key = ${key}
      `.execute(trx);
    },
  };
}

export type AuthoringRepository = ReturnType<typeof createAuthoringRepository>;
