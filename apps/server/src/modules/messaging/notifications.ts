import { sql } from 'kysely';
import {
  ANNOUNCEMENT_PURPOSE,
  PUSH_NOTIFICATION_TYPE,
  type BroadcastBody,
  type CommunicationTestBody,
  type NotificationEventData,
  type NotificationQueued,
  type NotificationReceipt,
} from '@loopdesk/contracts/notifications.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import type { Origin } from '../conversations/service.ts';
import { recordCommunicationEvent } from '../jobs/events.ts';
import { audited, type Actor } from './audited.ts';

/** What a test send says when no announcement is under review. */
const TEST_PUSH = {
  title: 'Test notification',
  content: 'This is a test push notification from Loopdesk.',
} as const;

type Options = BroadcastBody['pushNotificationOptions'];

/**
 * Push notifications (spec 3 §2 "Push broadcast", §7 "Push"; issue 15 item 6): a broadcast to every
 * patient or a test to one, each queued as an outbox event the assistant fans out to devices. A
 * limit per hour (configuration) keeps a slip from flooding patients: over it, a 429 that says when
 * the next one may go.
 */
export function createNotificationsService(
  db: Database,
  limits: { broadcastsPerHour: number; testsPerHour: number },
) {
  const consumers = createConversationsRepository(db);

  /** Queues one notification, within the hour's limit, in one transaction. */
  async function queue(
    kind: 'broadcast' | 'test',
    options: Options | typeof TEST_PUSH,
    staff: Actor,
    consumerId: string | null,
    origin: Origin,
  ): Promise<NotificationQueued> {
    const limit = kind === 'broadcast' ? limits.broadcastsPerHour : limits.testsPerHour;
    return db.transaction().execute(async (trx) => {
      // One writer at a time per kind: two sends at once cannot both slip under the limit.
      await sql`select pg_advisory_xact_lock(hashtext(${`push-${kind}`}))`.execute(trx);
      let recent = trx
        .selectFrom('push_notifications')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_on').as('oldest')])
        .where('kind', '=', kind)
        .where('created_on', '>', sql<Date>`now() - interval '1 hour'`);
      if (kind === 'test') {
        recent = recent.where('created_by', '=', staff.id);
      }
      const { n, oldest } = await recent.executeTakeFirstOrThrow();
      if (Number(n) >= limit) {
        const next = new Date(new Date(oldest ?? Date.now()).getTime() + 3_600_000);
        const minutes = Math.max(1, Math.ceil((next.getTime() - Date.now()) / 60_000));
        throw new AppError(
          429,
          kind === 'broadcast'
            ? `At most ${limit} push broadcasts an hour: the next one can be queued in ${minutes} minute${minutes === 1 ? '' : 's'}. Nothing was sent.`
            : `At most ${limit} test pushes an hour for each user: try again in ${minutes} minute${minutes === 1 ? '' : 's'}. Nothing was sent.`,
        );
      }
      const data = 'data' in options && options.data ? options.data : {};
      const row = await trx
        .insertInto('push_notifications')
        .values({
          kind,
          consumer_id: consumerId,
          title: options.title,
          content: options.content,
          data: JSON.stringify(data),
          created_by: staff.id,
          created_by_email: staff.email,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      const event: NotificationEventData = {
        notification: {
          id: row.id,
          kind,
          consumerId,
          type: PUSH_NOTIFICATION_TYPE,
          purpose: ANNOUNCEMENT_PURPOSE,
          title: options.title,
          content: options.content,
          data,
        },
      };
      await recordCommunicationEvent(
        trx,
        kind === 'broadcast' ? 'notification.broadcast' : 'notification.test',
        event,
      );
      await recordAudit(
        trx,
        {
          action: `push.${kind}`,
          outcome: 'success',
          actorId: staff.id,
          actorEmail: staff.email,
          resourceType: 'push_notification',
          resourceId: row.id,
          statusCode: 202,
          details: { consumerId, title: options.title },
        },
        origin,
      );
      return { id: row.id };
    });
  }

  return {
    /** `POST /internal/notifications/_broadcast`: an announcement for every patient. */
    broadcast(body: BroadcastBody, staff: Actor, origin: Origin): Promise<NotificationQueued> {
      return audited(
        db,
        {
          actor: staff,
          action: 'push.broadcast',
          resourceType: 'push_notification',
          resourceId: 'all',
        },
        origin,
        () => queue('broadcast', body.pushNotificationOptions, staff, null, origin),
      );
    },

    /** `POST /internal/consumers/{id}/communications/_test`: the push to one patient only. */
    test(
      consumerId: string,
      body: CommunicationTestBody,
      staff: Actor,
      origin: Origin,
    ): Promise<NotificationQueued> {
      return audited(
        db,
        { actor: staff, action: 'push.test', resourceType: 'consumer', resourceId: consumerId },
        origin,
        async () => {
          if (!(await consumers.findConsumer(consumerId))) {
            throw notFound(
              `No patient with the id '${consumerId}': a test push goes to a patient the assistant registered.`,
            );
          }
          return queue(
            'test',
            body.pushNotificationOptions ?? TEST_PUSH,
            staff,
            consumerId,
            origin,
          );
        },
      );
    },

    /** The assistant fanned a notification out: how many devices it reached. */
    async receipt(
      id: string,
      devices: number,
      apiKey: string,
      origin: Origin,
    ): Promise<NotificationReceipt> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('push_notifications')
          .set({ delivered_devices: devices, delivered_on: sql<Date>`now()` })
          .where('id', '=', id)
          .returning(['id', 'delivered_devices', 'delivered_on'])
          .executeTakeFirst();
        if (!row) {
          throw notFound(`No push notification with the id '${id}'.`);
        }
        await recordAudit(
          trx,
          {
            action: 'push.receipt',
            outcome: 'success',
            resourceType: 'push_notification',
            resourceId: id,
            statusCode: 200,
            details: { apiKey, devices },
          },
          origin,
        );
        return {
          id: row.id,
          devices: row.delivered_devices ?? devices,
          deliveredOn: new Date(row.delivered_on ?? Date.now()).toISOString(),
        };
      });
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
