import type { ApiRouter } from '../../platform/api-routes.ts';
import { requestOrigin } from '../../platform/audit.ts';
import { signedInUser } from '../../platform/auth/guard.ts';
import type { NotificationsService } from './notifications.ts';
import type { ThreadsService } from './threads.ts';

/** Direct messaging and push for staff (spec 3 §7 "Direct messaging", "Push"). */
export function registerMessagingRoutes(
  api: ApiRouter,
  threads: ThreadsService,
  notifications: NotificationsService,
): void {
  const docs = (summary: string) => ({ docs: { tags: ['messaging'], summary } });

  api.route(
    'GET /internal/messaging/groups',
    docs('The open threads, with their latest message and unread counts'),
    async (request) => ({
      items: await threads.openThreads(signedInUser(request), requestOrigin(request)),
    }),
  );

  api.route(
    'POST /internal/messaging/groups/_upsert',
    docs('Start a thread for a customer by email (409 while one is open)'),
    async (request, reply) => {
      const started = await threads.start(
        request.body,
        signedInUser(request),
        requestOrigin(request),
      );
      return reply.status(201).send(started);
    },
  );

  api.route(
    'GET /internal/messaging/groups/:id/messages',
    docs("A thread's messages, oldest first"),
    async (request) => ({
      items: await threads.messages(
        request.params.id,
        signedInUser(request),
        requestOrigin(request),
      ),
    }),
  );

  api.route(
    'PATCH /internal/messaging/groups/:id/messages/_mark_as_read',
    docs("Mark the customer's messages read"),
    async (request) =>
      threads.markRead(request.params.id, signedInUser(request), requestOrigin(request)),
  );

  api.route(
    'POST /internal/messaging/groups/:id/messages',
    docs('Send a message to the customer (its id is also in the Location header)'),
    async (request, reply) => {
      const { id } = request.params;
      const message = await threads.send(
        id,
        request.body,
        signedInUser(request),
        requestOrigin(request),
      );
      return reply
        .status(201)
        .header(
          'location',
          `/internal/messaging/groups/${encodeURIComponent(id)}/messages/${message.id}`,
        )
        .send(message);
    },
  );

  api.route(
    'DELETE /internal/messaging/groups/:id',
    docs('Archive a thread: it leaves the open list'),
    async (request) =>
      threads.archive(request.params.id, signedInUser(request), requestOrigin(request)),
  );

  api.route(
    'POST /internal/notifications/_broadcast',
    { docs: { tags: ['notifications'], summary: 'Queue a push announcement for every patient' } },
    async (request, reply) => {
      const queued = await notifications.broadcast(
        request.body,
        signedInUser(request),
        requestOrigin(request),
      );
      return reply.status(202).send(queued);
    },
  );

  api.route(
    'POST /internal/consumers/:id/communications/_test',
    { docs: { tags: ['notifications'], summary: 'Send a test push to one patient' } },
    async (request, reply) => {
      const queued = await notifications.test(
        request.params.id,
        request.body,
        signedInUser(request),
        requestOrigin(request),
      );
      return reply.status(202).send(queued);
    },
  );
}
