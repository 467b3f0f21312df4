import type { ApiV1Registrar } from '../../platform/api-routes.ts';
import type { Database } from '../../platform/db/database.ts';
import type { NotificationsService } from './notifications.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import { createMessagingRepository, toThreadMessage } from './repository.ts';

/**
 * The assistant's side of direct messaging on `/api/v1`: it registers the patients staff may
 * message, and brings back their replies (which also say the patient read staff's messages).
 */
export function registerPatientApi(
  v1: ApiV1Registrar,
  deps: { db: Database; notifications: NotificationsService },
): void {
  const { db } = deps;
  const repo = createMessagingRepository(db);
  const consumers = createConversationsRepository(db);

  v1.registerApiV1(
    'PUT /api/v1/consumers/:id',
    {
      docs: {
        tags: ['messaging'],
        summary: 'Register or update a patient staff may message directly (by email)',
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      return db.transaction().execute(async (trx) => {
        const existing = await consumers.findConsumer(id, trx);
        if (existing && existing.tenant !== body.tenant) {
          throw conflict(
            `The patient ${id} belongs to the tenant ${existing.tenant}: use that tenant or another patient id.`,
          );
        }
        await consumers.upsertConsumer(
          {
            id,
            tenant: body.tenant,
            given: body.name.given,
            family: body.name.family,
            email: body.email,
            externalReferences: body.externalReferences,
          },
          trx,
        );
        await recordAudit(
          trx,
          {
            action: 'consumer.put',
            outcome: 'success',
            resourceType: 'consumer',
            resourceId: id,
            statusCode: 200,
            details: { apiKey: v1.apiKeyName(request) },
          },
          requestOrigin(request),
        );
        return { id, tenant: body.tenant, name: body.name, email: body.email };
      });
    },
  );

  v1.registerApiV1(
    'POST /api/v1/threads/:id/messages',
    {
      docs: {
        tags: ['messaging'],
        summary:
          "The patient's reply in a direct messaging thread (the same id again is a safe retry)",
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = request.body;
      const apiKey = v1.apiKeyName(request);
      const { message, created } = await db.transaction().execute(async (trx) => {
        const thread = await repo.lockThread(id, trx);
        if (!thread) {
          throw notFound(
            `No messaging thread with the id '${id}': reply to a message.sent event's thread.`,
          );
        }
        const retry = await repo.findByExternalId(id, body.id, trx);
        if (retry) {
          return { message: toThreadMessage(retry), created: false };
        }
        if (thread.archived_on) {
          throw conflict('This thread is archived: staff closed it, so the reply was not stored.');
        }
        const customer = await consumers.findConsumer(thread.consumer_id, trx);
        const row = await repo.insertMessage(
          {
            threadId: id,
            direction: 'IN',
            content: body.content,
            authorId: thread.consumer_id,
            authorName: customer
              ? `${customer.given_name} ${customer.family_name}`.trim()
              : thread.consumer_id,
            externalId: body.id,
          },
          trx,
        );
        // The patient answers what they have read.
        await repo.markRead(id, 'OUT', trx);
        await recordAudit(
          trx,
          {
            action: 'messaging.reply.receive',
            outcome: 'success',
            resourceType: 'messaging_thread',
            resourceId: id,
            statusCode: 201,
            details: { apiKey, customerId: thread.consumer_id, messageId: row.id },
          },
          requestOrigin(request),
        );
        return { message: toThreadMessage(row), created: true };
      });
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  v1.registerApiV1(
    'POST /api/v1/notifications/:id/receipt',
    {
      docs: {
        tags: ['notifications'],
        summary: 'Report how many devices a push notification reached',
      },
    },
    async (request) =>
      deps.notifications.receipt(
        request.params.id,
        request.body.devices,
        v1.apiKeyName(request),
        requestOrigin(request),
      ),
  );
}
