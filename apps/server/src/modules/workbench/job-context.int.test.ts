import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notHeldMessage } from '@loopdesk/contracts/job-context.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import { openSocket, type TestSocket } from '../../test/socket-client.ts';
import { createJobsRepository } from '../jobs/repository.ts';

/** Issue 20 "Context": the held job's patient and earlier turns, for its technician only. */
describe('GET /internal/quinn/jobs/{id}/_context', () => {
  let t: TestApp;
  let ann: string;
  let mel: string;
  let socket: TestSocket;
  const actor = { userId: null, email: null, apiKey: 'test' };
  const origin = { ip: null, userAgent: null, requestId: null };

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    ann = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    mel = (await tokenForRoles(t, 'mel@example.test', ['medical'])).token;
    const { service } = t.app.conversations;
    await service.put(
      'conv-ctx',
      {
        tenant: 'acme',
        consumer: {
          id: 'patient-ctx',
          name: { given: 'Nora', family: 'Lindgren' },
          externalReferences: [],
        },
      },
      actor,
      origin,
    );
    for (const [id, direction, content] of [
      ['m1', 'OUT', 'What brings you here?'],
      ['m2', 'IN', 'My throat is sore.'],
      ['m3', 'OUT', 'When did it start?'],
    ] as const) {
      await service.append('conv-ctx', { id, direction, content }, actor, origin);
    }
  });
  afterAll(async () => {
    socket.ws.close();
    await socket.closed;
    await t.close();
  });

  const context = (id: string, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/internal/quinn/jobs/${id}/_context`,
      headers: { authorization: `Bearer ${token}` },
    });

  it("answers the holder with the patient's first name and the turns, oldest first, audited; nobody else", async () => {
    socket = await openSocket(t.baseUrl, '/ws/federated', ann);
    await socket.next('technician.session.paused');
    socket.send('technician.session.activate');
    await socket.next('technician.session.waiting');
    const job = await createJobsRepository(t.database.db).enqueue({
      queue: 'federated',
      type: 'message.annotation.job',
      tenant: 'acme',
      payload: {
        lastTurn: {
          content: 'Since Tuesday',
          messageId: 'm4',
          userId: 'patient-ctx',
          metadata: { conversationId: 'conv-ctx' },
        },
      },
    });
    await t.app.hub.jobsAvailable(['federated']);
    await socket.next('message.annotation.job');

    const held = await context(job.id, ann);
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toMatchObject({
      patient: { firstName: 'Nora' },
      turns: [
        { direction: 'OUT', content: 'What brings you here?' },
        { direction: 'IN', content: 'My throat is sore.' },
        { direction: 'OUT', content: 'When did it start?' },
      ],
    });
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_email', 'resource_id'])
      .where('action', 'in', ['job.context.read', 'consumer.read', 'conversation.messages.read'])
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'job.context.read', actor_email: 'ann@example.test', resource_id: job.id },
        { action: 'consumer.read', actor_email: 'ann@example.test', resource_id: 'patient-ctx' },
        {
          action: 'conversation.messages.read',
          actor_email: 'ann@example.test',
          resource_id: 'conv-ctx',
        },
      ]),
    );

    // Another technician, who does not hold the job, reads nothing.
    const other = await context(job.id, mel);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(notHeldMessage(job.id));
  });

  it('refuses a malformed id with a clear message', async () => {
    const bad = await context('not-a-uuid', ann);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must be a job id (uuid)');
  });
});
