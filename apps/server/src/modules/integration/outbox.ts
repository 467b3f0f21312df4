import { sql, type Selectable, type Transaction } from 'kysely';
import type {
  DeliveryState,
  OutboxEvent,
  WebhookDeliveryView,
} from '@loopdesk/contracts/integration.ts';
import { WEBHOOK_DELIVERIES_SETTING, type Database } from '../../platform/db/database.ts';
import type { DB, OutboxEventsTable, WebhookDeliveriesTable } from '../../platform/db/schema.ts';

export type OutboxEventRow = Selectable<OutboxEventsTable>;
type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/**
 * A feed position: `{txid}_{cursor}`. Events are read in (txid, cursor) order and only from
 * transactions older than every one still running (`pg_snapshot_xmin`), so an event that commits
 * later can never sort before a position a reader has already passed. Writers take no lock.
 */
export function feedPosition(row: Pick<OutboxEventRow, 'txid' | 'cursor'>): string {
  return `${row.txid}_${row.cursor}`;
}

/** Parses a feed position; `undefined` means from the start. */
export function parseFeedPosition(position: string | undefined): { txid: string; cursor: number } {
  if (!position) {
    return { txid: '0', cursor: 0 };
  }
  const [txid = '0', cursor = '0'] = position.split('_');
  return { txid, cursor: Number(cursor) };
}

/** An outbox row as the pull feed and the webhook carry it (written by modules/jobs/events.ts). */
export function toOutboxEvent(row: OutboxEventRow): OutboxEvent {
  return {
    cursor: feedPosition(row),
    id: row.id,
    type: row.type,
    jobId: row.job_id,
    conversationId: row.conversation_id,
    data: (row.data ?? {}) as Record<string, unknown>,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function deliveryState(row: Pick<DeliveryRow, 'delivered_at' | 'dead_at'>): DeliveryState {
  if (row.dead_at) {
    return 'dead';
  }
  return row.delivered_at ? 'delivered' : 'pending';
}

type DeliveryJoin = DeliveryRow &
  Pick<OutboxEventRow, 'cursor' | 'txid' | 'type' | 'job_id' | 'conversation_id' | 'created_at'>;

export function toDeliveryView(row: DeliveryJoin): WebhookDeliveryView {
  const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
  return {
    eventId: row.event_id,
    cursor: feedPosition(row),
    type: row.type,
    jobId: row.job_id,
    conversationId: row.conversation_id,
    state: deliveryState(row),
    attempts: row.attempts,
    nextAttemptAt: deliveryState(row) === 'pending' ? iso(row.next_attempt_at) : null,
    deliveredAt: iso(row.delivered_at),
    deadAt: iso(row.dead_at),
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** Reads of the outbox: the pull feed and the delivery state admins see. */
export function createOutboxRepository(db: Database) {
  /**
   * The webhook's backlog (the metrics): deliveries still pending (retries included), dead ones,
   * and the age in seconds of the oldest event whose delivery is pending (0 when none). Served by
   * the partial index of due deliveries.
   */
  async function deliveryBacklog(): Promise<{ pending: number; dead: number; lagSeconds: number }> {
    const row = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
      .select([
        sql<string>`count(*) filter (where d.delivered_at is null and d.dead_at is null)`.as(
          'pending',
        ),
        sql<string>`count(*) filter (where d.dead_at is not null)`.as('dead'),
        sql<number>`coalesce(extract(epoch from now() - min(e.created_at) filter (where d.delivered_at is null and d.dead_at is null)), 0)::float8`.as(
          'lag',
        ),
      ])
      .where((eb) =>
        eb.or([
          eb.and([eb('d.delivered_at', 'is', null), eb('d.dead_at', 'is', null)]),
          eb('d.dead_at', 'is not', null),
        ]),
      )
      .executeTakeFirstOrThrow();
    return {
      pending: Number(row.pending),
      dead: Number(row.dead),
      lagSeconds: Math.max(0, Number(row.lag)),
    };
  }
  const deliveries = () =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
      .selectAll('d')
      .select(['e.cursor', 'e.txid', 'e.type', 'e.job_id', 'e.conversation_id', 'e.created_at']);

  return {
    deliveryBacklog,
    /** Events after a feed position, in feed order, from finished transactions only. */
    async feed(after: string | undefined, limit: number): Promise<OutboxEventRow[]> {
      const position = parseFeedPosition(after);
      const result = await sql<OutboxEventRow>`
        select * from outbox_events
        where (txid, cursor) > (${position.txid}::xid8, ${position.cursor})
          and txid < pg_snapshot_xmin(pg_current_snapshot())
        order by txid, cursor
        limit ${limit}`.execute(db);
      return result.rows;
    },

    listDeliveries(state: DeliveryState | undefined, limit: number): Promise<DeliveryJoin[]> {
      let query = deliveries();
      if (state === 'dead') {
        query = query.where('d.dead_at', 'is not', null);
      } else if (state === 'delivered') {
        query = query.where('d.delivered_at', 'is not', null).where('d.dead_at', 'is', null);
      } else if (state === 'pending') {
        query = query.where('d.delivered_at', 'is', null).where('d.dead_at', 'is', null);
      }
      return query.orderBy('e.cursor', 'desc').limit(limit).execute();
    },

    findDelivery(eventId: string, trx: Database | Transaction<DB> = db) {
      return trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('outbox_events as e', 'e.id', 'd.event_id')
        .selectAll('d')
        .select(['e.cursor', 'e.txid', 'e.type', 'e.job_id', 'e.conversation_id', 'e.created_at'])
        .where('d.event_id', '=', eventId)
        .executeTakeFirst();
    },

    /**
     * Whether this node's connections record webhook deliveries (it has a webhook: openDatabase,
     * migration 015).
     */
    async recordsDeliveries(trx: Database | Transaction<DB> = db): Promise<boolean> {
      const setting = await sql<{ value: string | null }>`
        select current_setting(${WEBHOOK_DELIVERIES_SETTING}, true) as value`.execute(trx);
      return setting.rows[0]?.value === 'on';
    },

    /** Schedules a dead or delivered event again, now, with fresh attempts (same event id). */
    async redeliver(eventId: string, trx: Transaction<DB>): Promise<boolean> {
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({
          attempts: 0,
          next_attempt_at: sql<Date>`now()`,
          delivered_at: null,
          dead_at: null,
          last_error: null,
          updated_at: sql<Date>`now()`,
        })
        .where('event_id', '=', eventId)
        .where((eb) => eb.or([eb('dead_at', 'is not', null), eb('delivered_at', 'is not', null)]))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
