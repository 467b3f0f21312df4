import { describe, expect, it } from 'vitest';
import type { OutboxEvent } from '@loopdesk/contracts/integration.ts';
import type { ApiCaller } from './client.ts';
import {
  DemoPatients,
  demoReply,
  MESSAGING_PATIENTS,
  registerMessagingPatients,
} from './messaging.ts';

/** A client that records the calls the demo makes. */
function recordingClient() {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const client = ((method: string, path: string, body?: unknown) => {
    calls.push({ method, path, body });
    return Promise.resolve({});
  }) as unknown as ApiCaller;
  return { client, calls };
}

const event = (type: OutboxEvent['type'], data: Record<string, unknown>): OutboxEvent => ({
  cursor: '1_1',
  id: '00000000-0000-4000-8000-000000000001',
  type,
  jobId: null,
  conversationId: null,
  data,
  createdAt: '2026-11-26T08:00:00.000Z',
});

describe('the demo patients of direct messaging', () => {
  it('registers each demo patient by email, clearly as demo data', async () => {
    const { client, calls } = recordingClient();
    await registerMessagingPatients(client);
    expect(calls.map((c) => c.path)).toEqual(
      MESSAGING_PATIENTS.map((p) => `/api/v1/consumers/${p.id}`),
    );
    for (const patient of MESSAGING_PATIENTS) {
      expect(patient.id).toMatch(/^demo-/);
      expect(patient.email).toMatch(/@demo-patient\.test$/);
    }
  });

  it('a demo patient answers a staff message in its thread; another patient’s message is left alone', async () => {
    const { client, calls } = recordingClient();
    const patients = new DemoPatients(client, { replyDelayMs: 0, log: () => undefined });
    const message = {
      id: 'm1',
      content: 'Your results are in.',
      createdOn: '2026-11-26T08:00:00.000Z',
      direction: 'OUT',
      author: { id: 'u1', name: 'meera@loopdesk.test' },
    };
    await patients.handle(
      event('message.sent', { thread: { id: 't1', customerId: 'demo-sam-rivera' }, message }),
    );
    await patients.handle(
      event('message.sent', { thread: { id: 't2', customerId: 'patient-real' }, message }),
    );
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/v1/threads/t1/messages',
        body: { id: 'reply-m1', content: demoReply('Sam', 'Your results are in.') },
      },
    ]);
  });

  it('fans a broadcast out to every demo device and a test to one, and reports the receipt', async () => {
    const { client, calls } = recordingClient();
    const patients = new DemoPatients(client, { replyDelayMs: 0, log: () => undefined });
    const notification = {
      id: 'n1',
      kind: 'broadcast',
      consumerId: null,
      type: 'PUSH_NOTIFICATION',
      purpose: 'announcement',
      title: 'Clinic closed Friday',
      content: 'The clinic is closed this Friday.',
      data: {},
    };
    await patients.handle(event('notification.broadcast', { notification }));
    await patients.handle(
      event('notification.test', {
        notification: { ...notification, id: 'n2', kind: 'test', consumerId: 'demo-jin-park' },
      }),
    );
    expect(patients.received).toEqual(
      new Map([
        ['n1', MESSAGING_PATIENTS.length],
        ['n2', 1],
      ]),
    );
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/v1/notifications/n1/receipt', { devices: MESSAGING_PATIENTS.length }],
      ['/api/v1/notifications/n2/receipt', { devices: 1 }],
    ]);
  });
});
