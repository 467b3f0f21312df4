import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagesPage } from '@loopdesk/contracts/conversations.ts';
import { EXCEPTION_EVENTS, type QueuedConversations } from '@loopdesk/contracts/exceptions.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { openSocket, type TestSocket } from '../../test/socket-client.ts';

/** Polls until the check passes (or fails the test after `ms`). */
async function eventually<T>(check: () => T | Promise<T>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('red flags at the exception desk (issue 20)', () => {
  let t: TestApp;
  let key: string;
  let socket: TestSocket | null = null;

  beforeAll(async () => {
    t = await startTestApp({ listen: true, env: { SOCKET_HEARTBEAT_SECONDS: '1' } });
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'assistant-test' },
    });
    key = created.json().key;
  });
  afterAll(async () => {
    socket?.ws.close();
    await t.close();
  });

  const api = (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, payload });

  it('marks a patient message of chest pain, the transcript, the queue and the live event, and audits the queue read', async () => {
    const id = 'conv-red-flag';
    await api('PUT', `/api/v1/conversations/${id}`, {
      tenant: 'acme-clinic',
      consumer: { id: 'patient-red', name: { given: 'Emmy', family: 'Noether' } },
    });
    await api('POST', `/api/v1/conversations/${id}/messages`, {
      id: 'm1',
      direction: 'IN',
      content: 'I have a headache.',
    });
    await api('POST', `/api/v1/conversations/${id}/messages`, {
      id: 'm2',
      direction: 'OUT',
      content: 'Any chest pain?',
    });
    await api('POST', `/api/v1/conversations/${id}/handover`, { reason: 'asked for a human' });

    const { token } = await tokenForRoles(t, 'meera@example.test', ['medical']);
    socket = await openSocket(t.baseUrl, '/ws/exceptions', token);
    await socket.next('technician.session.paused');
    socket.send('technician.session.activate');
    const added = await socket.next(EXCEPTION_EVENTS.added);
    expect(added.data).toMatchObject({ conversation: { conversationId: id, redFlags: [] } });

    // The patient writes of chest pain: the live event carries the red flag.
    await api('POST', `/api/v1/conversations/${id}/messages`, {
      id: 'm3',
      direction: 'IN',
      content: 'Now I have chest pain and arm weakness.',
    });
    const event = await eventually(() => {
      const found = socket?.received.find(
        (e) =>
          e.type === EXCEPTION_EVENTS.messageAdded &&
          (e.data.message as { id: string }).id === 'm3',
      );
      expect(found).toBeDefined();
      return found;
    });
    expect(
      (event?.data.message as { redFlags: { observation: string }[] }).redFlags.map(
        (f) => f.observation,
      ),
    ).toEqual(['chest pain', 'weakness on one side of the body']);

    // The transcript marks only that message (not the assistant's question, nor the headache).
    const page = (
      await t.app.inject({
        method: 'GET',
        url: `/internal/conversations/${id}/messages?order=createdOn&s=10&p=0`,
        headers: { authorization: `Bearer ${token}` },
      })
    ).json<MessagesPage>();
    expect(page.items.map((m) => [m.id, (m.redFlags ?? []).length])).toEqual([
      ['m1', 0],
      ['m2', 0],
      ['m3', 2],
    ]);
    expect(page.items[2]?.redFlags?.[0]?.conditions).toContain('myocardial infarction');

    // The queue's answer carries it, and the read is in the audit trail.
    const queued = (
      await t.app.inject({
        method: 'GET',
        url: '/internal/conversations/_queued',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json<QueuedConversations>();
    expect(queued.items[0]).toMatchObject({
      conversationId: id,
      redFlags: ['chest pain', 'weakness on one side of the body'],
    });
    expect(queued.items[0]?.waitingSince).toEqual(expect.any(String));
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['actor_email', 'resource_id'])
      .where('action', '=', 'conversation.queue.read')
      .execute();
    expect(audit).toEqual([{ actor_email: 'meera@example.test', resource_id: id }]);
  });
});
