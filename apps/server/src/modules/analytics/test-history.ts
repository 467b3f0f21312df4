import { sql } from 'kysely';
import type { Database } from '../../platform/db/database.ts';

/**
 * A known job history for the analytics tests (issue 16 item 5): jobs, their outbox events and
 * audit rows as the server writes them, at fixed times from T0, so every figure can be computed
 * by hand (docs/analytics.md shows the arithmetic).
 */
export const T0 = new Date('2026-01-05T10:00:00.000Z');
export const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

export interface JobSpec {
  readonly id: string;
  readonly type: string;
  readonly queue: string;
  readonly tenant: string;
  readonly created: number;
  readonly state: 'queued' | 'assigned' | 'completed' | 'cancelled' | 'dead';
  readonly deliveries?: readonly { readonly at: number; readonly user: string }[];
  readonly completed?: { readonly at: number; readonly user: string; readonly type: string };
  readonly events?: readonly {
    readonly type: string;
    readonly at: number;
    readonly data?: object;
  }[];
}

export async function insertJob(db: Database, job: JobSpec): Promise<void> {
  const last = job.completed?.at ?? job.events?.at(-1)?.at ?? job.created;
  await sql`
    insert into jobs (id, queue, type, tenant, payload, state, attempts, assignee_id, result,
      queued_at, created_at, updated_at, completed_at)
    values (${job.id}, ${job.queue}, ${job.type}, ${job.tenant}, '{}'::jsonb, ${job.state},
      ${job.deliveries?.length ?? 0}, ${job.completed?.user ?? null},
      ${job.completed ? JSON.stringify({ type: job.completed.type, data: {} }) : null}::jsonb,
      ${at(job.created)}, ${at(job.created)}, ${at(last)},
      ${job.completed ? at(job.completed.at) : null})`.execute(db);
  for (const delivery of job.deliveries ?? []) {
    await audit(db, 'job.delivered', 'job', job.id, delivery.at, delivery.user, {
      queue: job.queue,
      type: job.type,
      tenant: job.tenant,
    });
  }
  const events = [{ type: 'job.created', at: job.created }, ...(job.events ?? [])];
  if (job.completed) {
    events.push({ type: 'job.completed', at: job.completed.at });
  }
  for (const event of events) {
    await sql`
      insert into outbox_events (type, job_id, data, created_at)
      values (${event.type}, ${job.id}, ${JSON.stringify('data' in event ? event.data : {})}::jsonb,
        ${at(event.at)})`.execute(db);
  }
}

export async function audit(
  db: Database,
  action: string,
  resourceType: string,
  resourceId: string,
  seconds: number,
  actor: string | null,
  details: object = {},
): Promise<void> {
  await sql`
    insert into audit_events (occurred_at, actor_id, action, resource_type, resource_id, outcome, details)
    values (${at(seconds)}, ${actor}, ${action}, ${resourceType}, ${resourceId}, 'success',
      ${JSON.stringify(details)}::jsonb)`.execute(db);
}

/** A conversation of a demo-free test patient, for the desk's audit rows. */
export async function insertConversation(db: Database, id: string, tenant: string): Promise<void> {
  await sql`insert into consumers (id, tenant, given_name) values (${`${id}-patient`}, ${tenant}, 'Test')
    on conflict do nothing`.execute(db);
  await sql`insert into conversations (id, tenant, consumer_id) values (${id}, ${tenant}, ${`${id}-patient`})`.execute(
    db,
  );
}
