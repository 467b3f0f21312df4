import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@loopdesk/contracts/errors.ts';
import {
  ConsumerIdParams,
  ConsumerRegistered,
  PatientReplyBody,
  PutConsumerBody,
  ThreadMessage,
  ThreadParams,
} from '@loopdesk/contracts/messaging.ts';
import {
  NotificationParams,
  NotificationReceipt,
  NotificationReceiptBody,
} from '@loopdesk/contracts/notifications.ts';
import type { Database } from '../../platform/db/database.ts';
import type { NotificationsService } from './notifications.ts';
import { recordAudit, requestOrigin } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import { createMessagingRepository, toThreadMessage } from './repository.ts';

const security = [{ apiKey: [] }];

/**
 * The assistant's side of direct messaging on `/api/v1`: it registers the patients staff may
 * message, and brings back their replies (which also say the patient read staff's messages).
 */
export function registerPatientApi(
  plugin: FastifyInstance,
  deps: {
    db: Database;
    notifications: NotificationsService;
    apiKeyName: (request: FastifyRequest) => string;
  },
): void {
  const { db } = deps;
  const v1 = plugin.withTypeProvider<ZodTypeProvider>();
  const repo = createMessagingRepository(db);
  const consumers = createConversationsRepository(db);

  v1.put(
    '/consumers/:id',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Register or update a patient staff may message directly (by email)',
        security,
        params: ConsumerIdParams,
        body: PutConsumerBody,
        response: { 200: ConsumerRegistered, ...errorResponses([409]) },
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
            details: { apiKey: deps.apiKeyName(request) },
          },
          requestOrigin(request),
        );
        return { id, tenant: body.tenant, name: body.name, email: body.email };
      });
    },
  );

  v1.post(
    '/threads/:id/messages',
    {
      schema: {
        tags: ['messaging'],
        summary:
          "The patient's reply in a direct messaging thread (the same id again is a safe retry)",
        security,
        params: ThreadParams,
        body: PatientReplyBody,
        response: { 200: ThreadMessage, 201: ThreadMessage, ...errorResponses([404, 409]) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const body = request.body;
      const apiKey = deps.apiKeyName(request);
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

  v1.post(
    '/notifications/:id/receipt',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Report how many devices a push notification reached',
        security,
        params: NotificationParams,
        body: NotificationReceiptBody,
        response: { 200: NotificationReceipt, ...errorResponses([404]) },
      },
    },
    async (request) =>
      deps.notifications.receipt(
        request.params.id,
        request.body.devices,
        deps.apiKeyName(request),
        requestOrigin(request),
      ),
  );
}
