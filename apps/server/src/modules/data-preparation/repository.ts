import { sql, type Transaction } from 'kysely';
import type {
  DataPreparationJob,
  DataPreparationStatus,
} from '@loopdesk/contracts/data-preparation.ts';
import type { Database } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';

type Executor = Database | Transaction<DB>;

/** A row of `data_preparation_documents` (migration 018). */
export interface DocumentRow {
  readonly key: string;
  readonly code: string;
  readonly status: DataPreparationStatus;
  readonly job: DataPreparationJob;
  readonly file_name: string;
  readonly content_type: 'application/pdf' | 'text/plain';
  readonly byte_size: number;
  readonly page_count: number;
  readonly text_layer: boolean;
  readonly extracted_text: string;
  readonly origin: string;
  readonly demo: boolean;
  readonly registered_by: string | null;
  readonly prepared_by: string | null;
  readonly reviewed_by: string | null;
  readonly lease_holder: string | null;
  readonly lease_expires_at: Date | null;
  readonly created_at: Date;
}

/** What registration stores. */
export type NewDocument = Omit<
  DocumentRow,
  'prepared_by' | 'reviewed_by' | 'lease_holder' | 'lease_expires_at' | 'created_at'
>;

// bigint comes back from `pg` as a string: cast in SQL.
const COLUMNS = sql`
  key, code, status, job, file_name, content_type, byte_size::integer as byte_size, page_count,
  text_layer, extracted_text, origin, demo, registered_by, prepared_by, reviewed_by,
  lease_holder, lease_expires_at, created_at
`;

/** The SQL of the data-preparation documents. */
export function createDocumentsRepository(db: Database) {
  return {
    async insert(row: NewDocument, trx: Executor = db): Promise<void> {
      await sql`
        insert into data_preparation_documents
          (key, code, status, job, file_name, content_type, byte_size, page_count, text_layer,
           extracted_text, origin, demo, registered_by)
        values (${row.key}, ${row.code}, ${row.status}, ${JSON.stringify(row.job)}::jsonb,
          ${row.file_name}, ${row.content_type}, ${row.byte_size}, ${row.page_count},
          ${row.text_layer}, ${row.extracted_text}, ${row.origin}, ${row.demo},
          ${row.registered_by})
      `.execute(trx);
    },

    async find(key: string, trx: Executor = db, lock = false): Promise<DocumentRow | null> {
      const { rows } = await sql<DocumentRow>`
        select ${COLUMNS} from data_preparation_documents where key = ${key}
        ${lock ? sql`for update` : sql``}
      `.execute(trx);
      return rows[0] ?? null;
    },

    async findByCode(code: string, trx: Executor = db): Promise<DocumentRow | null> {
      const { rows } = await sql<DocumentRow>`
        select ${COLUMNS} from data_preparation_documents where code = ${code}
      `.execute(trx);
      return rows[0] ?? null;
    },

    async count(statuses: readonly DataPreparationStatus[] | undefined): Promise<number> {
      const { rows } = await sql<{ size: number }>`
        select count(*)::integer as size from data_preparation_documents
        ${statuses ? sql`where status in (${sql.join(statuses)})` : sql``}
      `.execute(db);
      return rows[0]?.size ?? 0;
    },

    async list(statuses: readonly DataPreparationStatus[] | undefined): Promise<DocumentRow[]> {
      const { rows } = await sql<DocumentRow>`
        select ${COLUMNS} from data_preparation_documents
        ${statuses ? sql`where status in (${sql.join(statuses)})` : sql``}
        order by created_at, key
      `.execute(db);
      return rows;
    },

    /**
     * Leases the oldest registered job nobody else holds to `holder` (one statement: two callers
     * never get the same job); the caller's own unexpired lease comes back first.
     */
    async leaseNext(holder: string, leaseMs: number): Promise<DocumentRow | null> {
      const { rows } = await sql<DocumentRow>`
        update data_preparation_documents
        set lease_holder = ${holder},
            lease_expires_at = now() + (${leaseMs}::integer * interval '1 millisecond'),
            updated_at = now()
        where key = (
          select key from data_preparation_documents
          where status = 'REGISTERED'
            and (lease_holder is null or lease_holder = ${holder} or lease_expires_at < now())
          order by (lease_holder is not distinct from ${holder}) desc, created_at, key
          limit 1
          for update skip locked
        )
        returning ${COLUMNS}
      `.execute(db);
      return rows[0] ?? null;
    },

    async save(
      key: string,
      change: {
        status: DataPreparationStatus;
        job: DataPreparationJob;
        preparedBy?: string;
        reviewedBy?: string;
        keepLease: boolean;
      },
      trx: Executor,
    ): Promise<DocumentRow> {
      const { rows } = await sql<DocumentRow>`
        update data_preparation_documents
        set status = ${change.status}, job = ${JSON.stringify(change.job)}::jsonb,
            prepared_by = coalesce(${change.preparedBy ?? null}::text, prepared_by),
            prepared_at = case when ${change.preparedBy ?? null}::text is null
              then prepared_at else now() end,
            reviewed_by = coalesce(${change.reviewedBy ?? null}::text, reviewed_by),
            reviewed_at = case when ${change.reviewedBy ?? null}::text is null
              then reviewed_at else now() end,
            lease_holder = case when ${change.keepLease} then lease_holder else null end,
            lease_expires_at = case when ${change.keepLease} then lease_expires_at else null end,
            updated_at = now()
        where key = ${key}
        returning ${COLUMNS}
      `.execute(trx);
      const row = rows[0];
      if (!row) {
        throw new Error(`data preparation job ${key} vanished while saved`);
      }
      return row;
    },

    async setJob(key: string, job: DataPreparationJob, trx: Executor = db): Promise<void> {
      await sql`
        update data_preparation_documents set job = ${JSON.stringify(job)}::jsonb,
          updated_at = now()
        where key = ${key}
      `.execute(trx);
    },

    /** Takes the seeding lock; true when documents exist already (a concurrent start seeds once). */
    async lockSeedAndHasAny(trx: Executor): Promise<boolean> {
      await sql`select pg_advisory_xact_lock(hashtext('loopdesk:data-preparation:seed'))`.execute(
        trx,
      );
      const { rows } = await sql<{ any: boolean }>`
        select exists (select 1 from data_preparation_documents) as any
      `.execute(trx);
      return rows[0]?.any ?? false;
    },
  };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
