import { sql, type Kysely } from 'kysely';

/**
 * Issue 18 #7: on PostgreSQL the per-route `patient-data.*` entry is written while the route
 * works, presuming the route's success status (platform/audit.ts); an answer with another status
 * adds a correcting entry whose `details.corrects` is the presumed row's id (the trail stays
 * append-only). `patient_data_audit` is the trail of patient data as it happened: one entry per
 * request, with its true outcome (a presumed entry that was corrected is left out). The partial
 * index finds a row's correction; only corrections are in it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index audit_events_corrects_idx on audit_events (((details ->> 'corrects')::bigint))
      where details ? 'corrects';
    create view patient_data_audit as
      select entry.* from audit_events entry
      where entry.action in ('patient-data.read', 'patient-data.write')
        and not exists (
          select 1 from audit_events correction
          where correction.details ? 'corrects'
            and (correction.details ->> 'corrects')::bigint = entry.id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop view patient_data_audit;
    drop index audit_events_corrects_idx;
  `.execute(db);
}
