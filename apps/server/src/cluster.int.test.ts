import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_SESSION_MESSAGE } from '@loopdesk/contracts/realtime.ts';
import { EXCEPTION_EVENTS } from '@loopdesk/contracts/exceptions.ts';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { DatabaseHandle } from './platform/db/database.ts';
import { createUsersRepository } from './modules/users/repository.ts';
import { createSessionStore } from './platform/auth/sessions.ts';
import { createTokenService } from './platform/auth/tokens.ts';
import { startTwoNodes, type ServerProcess, type TwoNodes } from './test/processes.ts';
import { annotationData, openSocket } from './test/socket-client.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!adminUrl || !redisUrl)(
  'two server processes on one PostgreSQL and one Redis',
  () => {
    let cluster: TwoNodes | undefined;
    let secret: string;
    let handle: DatabaseHandle;
    let nodeA: ServerProcess;
    let nodeB: ServerProcess;

    beforeAll(async () => {
      // The test's own connection seeds and reads; the server processes write the outbox.
      cluster = await startTwoNodes({
        adminUrl: adminUrl ?? '',
        redisUrl: redisUrl ?? '',
        prefix: 'loopdesk_cluster',
      });
      ({ secret, handle, nodeA, nodeB } = cluster);
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
    });

    async function tokenFor(
      email: string,
      roles: Role[],
    ): Promise<{ token: string; userId: string }> {
      const user = await createUsersRepository(handle.db).upsertOnSignIn({
        email,
        displayName: null,
        photoUrl: null,
        initialRoles: roles,
      });
      const sessions = createSessionStore(handle.db, {
        idleMs: 3_600_000,
        absoluteMs: 3_600_000,
        reuseGraceMs: 0,
      });
      const { sessionId } = await sessions.create({ userId: user.id, ip: null, userAgent: null });
      const token = await createTokenService(secret, 3600).sign({
        sub: user.id,
        sid: sessionId,
        email,
        roles,
      });
      return { token, userId: user.id };
    }

    it('a job enqueued through node A reaches a technician connected to node B at once', async () => {
      // First, Cleo resumes on node B. Second, the assistant posts a job to node A.
      const cleo = await tokenFor('cleo@cluster.test', ['annotator']);
      const admin = await tokenFor('root@cluster.test', ['admin']);
      const onB = await openSocket(nodeB.baseUrl, '/ws/federated', cleo.token);
      onB.send('technician.session.activate');
      await onB.next('technician.session.waiting');
      const created = await fetch(`${nodeA.baseUrl}/internal/integration/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cluster test' }),
      });
      expect(created.status).toBe(201);
      const { key } = (await created.json()) as { key: string };
      const posted = await fetch(`${nodeA.baseUrl}/api/v1/jobs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': 'cluster-1',
        },
        body: JSON.stringify({
          queue: 'federated',
          type: 'message.annotation.job',
          tenant: 'acme',
          data: { lastTurn: { content: 'My knee hurts' } },
        }),
      });
      expect(posted.status).toBe(201);
      const job = (await posted.json()) as { id: string };
      // Cleo receives it over node B within the time the assistant would notice.
      const received = await onB.next('message.annotation.job', 3000);
      expect(received.data).toMatchObject({
        jobId: job.id,
        lastTurn: { content: 'My knee hurts' },
      });
      onB.send('message.annotation', annotationData(job.id));
      await onB.next('technician.session.waiting');
      const read = await fetch(`${nodeA.baseUrl}/api/v1/jobs/${job.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(((await read.json()) as { state: string }).state).toBe('completed');
      onB.ws.close();
      await onB.closed;
    });

    it('the exception desk across nodes: handover and patient messages through A reach a reviewer on B; her reply and handback reach the assistant', async () => {
      const meera = await tokenFor('meera@cluster.test', ['medical']);
      const admin = await tokenFor('ops@cluster.test', ['admin']);
      const created = await fetch(`${nodeA.baseUrl}/internal/integration/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cluster desk' }),
      });
      const { key } = (await created.json()) as { key: string };
      // The assistant only ever talks to node A.
      const api = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
        fetch(`${nodeA.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      type FeedEvent = {
        type: string;
        jobId: string | null;
        conversationId: string | null;
        data: Record<string, unknown>;
      };
      /** Waits until the assistant's feed on node A shows an event of this type for `id`. */
      async function feedEvent(
        type: string,
        id: string,
        by: 'conversationId' | 'jobId' = 'conversationId',
      ): Promise<FeedEvent> {
        const deadline = Date.now() + 10_000;
        for (;;) {
          const { events } = (await (await api('GET', '/api/v1/events?limit=500')).json()) as {
            events: FeedEvent[];
          };
          const found = events.find((e) => e.type === type && e[by] === id);
          if (found) {
            return found;
          }
          if (Date.now() > deadline) {
            throw new Error(
              `no ${type} for ${id} in the feed; got ${events.map((e) => e.type).join(', ')}`,
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }

      // First, Meera resumes at the desk on node B.
      const onB = await openSocket(nodeB.baseUrl, '/ws/exceptions', meera.token);
      await onB.next('technician.session.paused');
      onB.send('technician.session.activate');
      await onB.next('technician.session.waiting');

      // Second, the assistant registers a patient on node A, and hands the conversation over.
      const id = 'cluster-conv-1';
      const put = await api('PUT', `/api/v1/conversations/${id}`, {
        tenant: 'acme-clinic',
        botConversationId: 'bot-cluster-conv-1',
        consumer: {
          id: 'cluster-patient-1',
          name: { given: 'Noah', family: 'Tane' },
          externalReferences: [{ system: 'emr', reference: 'https://emr.example/p/1' }],
        },
      });
      expect(put.status, await put.text()).toBe(201);
      const asked = await api('POST', `/api/v1/conversations/${id}/messages`, {
        id: 'm1',
        direction: 'IN',
        content: 'Can I talk to a real person?',
      });
      expect(asked.status).toBe(201);
      const handover = await api('POST', `/api/v1/conversations/${id}/handover`, {
        reason: 'the patient asked for a human',
      });
      expect(handover.status, await handover.text()).toBe(200);

      // Meera, on node B, gets it at once and it comes on her screen.
      const added = await onB.next(EXCEPTION_EVENTS.added, 5000);
      expect(added.data.conversation).toMatchObject({
        conversationId: id,
        userId: 'cluster-patient-1',
        name: { given: 'Noah', family: 'Tane' },
      });
      expect((await onB.next(EXCEPTION_EVENTS.switched)).data).toEqual({ conversationId: id });

      // Third, the patient writes again through node A: node B shows it to Meera.
      const again = await api('POST', `/api/v1/conversations/${id}/messages`, {
        id: 'm2',
        direction: 'IN',
        content: 'My chest feels tight.',
      });
      expect(again.status).toBe(201);
      const message = await onB.next(EXCEPTION_EVENTS.messageAdded, 5000);
      expect(message.data).toMatchObject({
        conversationId: id,
        message: { id: 'm2', direction: 'IN', content: 'My chest feels tight.' },
      });

      // The assistant sends a task for it through node A: node B shows it on Meera's screen.
      const task = await fetch(`${nodeA.baseUrl}/api/v1/jobs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': 'cluster-desk-task-1',
        },
        body: JSON.stringify({
          queue: 'exceptions',
          type: 'exception.job',
          tenant: 'acme-clinic',
          data: {
            conversationId: id,
            lastTurn: { content: 'My chest feels tight.', messageId: 'm2' },
            slotSpecification: { code: 'associated_sx', short_description: 'associated symptoms' },
            slot: { id: 'slot-sx', code: 'associated_sx' },
            job: { purpose: 'full' },
          },
        }),
      });
      expect(task.status).toBe(201);
      const taskId = ((await task.json()) as { id: string }).id;
      const shown = await onB.next(EXCEPTION_EVENTS.job, 5000);
      expect(shown.data).toMatchObject({ jobId: taskId, conversationId: id });

      // Fourth, Meera answers on node B: the assistant reads the reply from node A's feed.
      onB.send('message.manual.response', {
        conversationId: id,
        replyTo: 'm2',
        message: 'I am Meera, a nurse. Is the tightness there now?',
        replyType: 'MANUAL',
      });
      await onB.next(EXCEPTION_EVENTS.manualResponded);
      const reply = await feedEvent('conversation.reply', id);
      expect(reply.data).toMatchObject({
        replyType: 'MANUAL',
        recipientId: 'cluster-patient-1',
        message: { content: 'I am Meera, a nurse. Is the tightness there now?' },
        conversation: { id, holder: { kind: 'reviewer', reviewerId: meera.userId } },
      });

      // Fifth, she hands back on node B: the assistant hears it on A and may speak again there.
      onB.send('technician.session.conversation.handback', { conversationId: id });
      expect((await onB.next(EXCEPTION_EVENTS.handedBack)).data).toEqual({ conversationId: id });
      await feedEvent('conversation.handedback', id);
      const resumed = await api('POST', `/api/v1/conversations/${id}/messages`, {
        id: 'm3',
        direction: 'OUT',
        content: 'Thanks for waiting. When did the tightness start?',
      });
      expect(resumed.status, await resumed.text()).toBe(201);
      // The handback cancelled her open task for the assistant.
      await feedEvent('job.cancelled', taskId, 'jobId');

      // Last, rebalancing across nodes: Omar resumes on node A while Meera holds a second
      // conversation on node B; when her socket closes, node A gives it to Omar at once.
      const omar = await tokenFor('omar@cluster.test', ['medical']);
      const second = 'cluster-conv-2';
      expect(
        (
          await api('PUT', `/api/v1/conversations/${second}`, {
            tenant: 'acme-clinic',
            botConversationId: 'bot-cluster-conv-2',
            consumer: { id: 'cluster-patient-2', name: { given: 'Ava', family: 'Ng' } },
          })
        ).status,
      ).toBe(201);
      expect(
        (await api('POST', `/api/v1/conversations/${second}/handover`, { reason: 'off-script' }))
          .status,
      ).toBe(200);
      await onB.next(EXCEPTION_EVENTS.added, 5000);
      const onA = await openSocket(nodeA.baseUrl, '/ws/exceptions', omar.token);
      await onA.next('technician.session.paused');
      onA.send('technician.session.activate');
      await onA.next('technician.session.waiting');
      expect(onA.received.some((e) => e.type === EXCEPTION_EVENTS.added)).toBe(false);
      onB.ws.close();
      await onB.closed;
      const taken = await onA.next(EXCEPTION_EVENTS.added, 5000);
      expect(taken.data.conversation).toMatchObject({ conversationId: second });
      onA.ws.close();
      await onA.closed;
    });

    it('a second session of the same technician on the other node is closed with 1008', async () => {
      const ann = await tokenFor('ann@cluster.test', ['annotator']);
      const onB = await openSocket(nodeB.baseUrl, '/ws/federated', ann.token);
      await onB.next('technician.session.paused');
      const onA = await openSocket(nodeA.baseUrl, '/ws/federated', ann.token);
      const closed = await onA.closed;
      expect(closed.code).toBe(1008);
      expect(DUPLICATE_SESSION_MESSAGE.startsWith(closed.reason)).toBe(true);
      onB.ws.close();
      await onB.closed;
    });

    it('an admin close on node A closes the socket held by node B', async () => {
      const ben = await tokenFor('ben@cluster.test', ['annotator']);
      const admin = await tokenFor('ada@cluster.test', ['admin']);
      const onB = await openSocket(nodeB.baseUrl, '/ws/federated', ben.token);
      await onB.next('technician.session.paused');
      const key = Buffer.from(ben.userId).toString('base64');
      const response = await fetch(`${nodeA.baseUrl}/internal/users/${key}/sessions/_close`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(response.status).toBe(200);
      expect((await onB.closed).code).toBe(4000);
    });
  },
);
