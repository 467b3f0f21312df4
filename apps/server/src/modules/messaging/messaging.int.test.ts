import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  MESSAGING_MESSAGES,
  type ThreadList,
  type ThreadMessageList,
} from '@loopdesk/contracts/messaging.ts';
import { EXCEPTION_ERRORS } from '@loopdesk/contracts/exceptions.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { feedCaughtUp } from '../../test/outbox.ts';
import { apiKeyFor, tokenForRoles } from '../../test/tokens.ts';

interface FeedEvent {
  type: string;
  jobId: string | null;
  conversationId: string | null;
  data: Record<string, unknown>;
}

describe('direct messaging', () => {
  let t: TestApp;
  let key: string;
  let medical: string;
  let annotator: string;
  let lead: string;
  let auditMark = 0;

  beforeAll(async () => {
    t = await startTestApp();
    medical = (await tokenForRoles(t, 'meera@example.test', ['medical'])).token;
    annotator = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    lead = (await tokenForRoles(t, 'lead@example.test', ['medical', 'admin'])).token;
    key = await apiKeyFor(t);
  });
  beforeEach(async () => {
    const db = t.database.db;
    await sql`delete from webhook_deliveries`.execute(db);
    await sql`delete from outbox_events`.execute(db);
    await sql`delete from messaging_messages`.execute(db);
    await sql`delete from messaging_threads`.execute(db);
    // The audit trail is append-only: each test reads what came after this mark.
    const last = await db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    auditMark = Number(last?.id ?? 0);
  });
  afterAll(async () => {
    await t.close();
  });

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const staff = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    token = medical,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  const patient = (id: string, email: string, given = 'Sam', family = 'Rivera') =>
    api('PUT', `/api/v1/consumers/${id}`, {
      tenant: 'acme-clinic',
      name: { given, family },
      email,
    });

  const start = (email: string, content = 'Your test results are in.', token = medical) =>
    staff(
      'POST',
      '/internal/messaging/groups/_upsert',
      { content, customer: { system: 'email', code: 'id', value: email } },
      token,
    );

  const send = (threadId: string, customerId: string, content: string) =>
    staff('POST', `/internal/messaging/groups/${threadId}/messages`, {
      content,
      customer: { system: 'decoded', code: 'id', value: customerId },
    });

  const feed = async (): Promise<FeedEvent[]> => {
    await feedCaughtUp(t.database.db);
    return (await api('GET', '/api/v1/events?limit=500')).json().events as FeedEvent[];
  };

  const audits = async (action: string) =>
    t.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', action)
      .where('id', '>', auditMark)
      .orderBy('id')
      .execute();

  it('a medical user starts a thread; the assistant hears the message, the patient replies, the list counts it unread until read', async () => {
    expect((await patient('demo-sam', 'sam@patients.test')).statusCode).toBe(200);

    // First, Meera starts a thread for Sam by email.
    const started = await start('SAM@patients.test');
    expect(started.statusCode, started.body).toBe(201);
    const { id, customerId, messageId } = started.json();
    expect(customerId).toBe('demo-sam');

    // The assistant reads the message from the outbox, to deliver it to Sam.
    const events = await feed();
    const sent = events.find((e) => e.type === 'message.sent');
    expect(sent?.jobId).toBeNull();
    expect(sent?.conversationId).toBeNull();
    expect(sent?.data).toMatchObject({
      thread: { id, customerId: 'demo-sam' },
      message: { id: messageId, direction: 'OUT', content: 'Your test results are in.' },
    });

    // Second, Sam replies through the assistant; a retry of the same id stores nothing new.
    const reply = await api('POST', `/api/v1/threads/${id}/messages`, {
      id: 'sam-1',
      content: 'Thank you!',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const again = await api('POST', `/api/v1/threads/${id}/messages`, {
      id: 'sam-1',
      content: 'Thank you!',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(reply.json().id);

    // The open list shows one unread message from Sam; Sam read Meera's message.
    const list = await staff('GET', '/internal/messaging/groups');
    expect(list.statusCode).toBe(200);
    const [thread] = list.json<ThreadList>().items;
    expect(thread).toMatchObject({
      id,
      customer: { id: 'demo-sam', name: { given: 'Sam', family: 'Rivera' } },
      unreadIn: 1,
      unreadOut: 0,
    });
    expect(thread?.messages.at(-1)).toMatchObject({ direction: 'IN', content: 'Thank you!' });

    // Third, Meera opens the thread: both messages, oldest first; marking them read clears the count.
    const messages = await staff('GET', `/internal/messaging/groups/${id}/messages`);
    expect(messages.json<ThreadMessageList>().items.map((m) => m.direction)).toEqual(['OUT', 'IN']);
    const read = await staff('PATCH', `/internal/messaging/groups/${id}/messages/_mark_as_read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().unreadIn).toBe(0);

    // Every read and write of the messages is in the audit trail.
    expect(await audits('messaging.thread.start')).toHaveLength(1);
    expect(await audits('messaging.threads.read')).toHaveLength(1);
    expect(await audits('messaging.messages.read')).toHaveLength(1);
    expect(await audits('messaging.messages.mark_read')).toHaveLength(1);
    expect(await audits('messaging.reply.receive')).toHaveLength(1);
    const [startAudit] = await audits('messaging.thread.start');
    expect(startAudit?.actor_email).toBe('meera@example.test');
  });

  it('a second thread for the same customer is a 409 with the spec’s message, until the first is archived', async () => {
    await patient('demo-jin', 'jin@patients.test', 'Jin', 'Park');
    const first = await start('jin@patients.test');
    expect(first.statusCode).toBe(201);
    const second = await start('jin@patients.test', 'Another thread');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(MESSAGING_MESSAGES.openThreadExists);
    const [refused] = await audits('messaging.thread.start').then((rows) =>
      rows.filter((row) => row.outcome === 'denied'),
    );
    expect(refused?.status_code).toBe(409);
    expect(await t.database.db.selectFrom('messaging_threads').selectAll().execute()).toHaveLength(
      1,
    );

    // Archiving removes it from the list, and a new thread may start.
    const { id } = first.json();
    const archived = await staff('DELETE', `/internal/messaging/groups/${id}`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect((await staff('GET', '/internal/messaging/groups')).json().items).toEqual([]);
    expect((await feed()).map((e) => e.type)).toContain('thread.archived');
    expect((await start('jin@patients.test', 'A new question')).statusCode).toBe(201);
  });

  it('an archived thread takes no message, from staff or the patient, and is not archived twice', async () => {
    await patient('demo-ola', 'ola@patients.test', 'Ola', 'Nordmann');
    const { id, customerId } = (await start('ola@patients.test')).json();
    await staff('DELETE', `/internal/messaging/groups/${id}`);
    const before = await t.database.db.selectFrom('messaging_messages').selectAll().execute();

    const sent = await send(id, customerId, 'Are you there?');
    expect(sent.statusCode).toBe(409);
    expect(sent.json().message).toMatch(/archived: nothing was changed/);
    expect((await staff('DELETE', `/internal/messaging/groups/${id}`)).statusCode).toBe(409);
    expect(
      (await staff('PATCH', `/internal/messaging/groups/${id}/messages/_mark_as_read`)).statusCode,
    ).toBe(409);
    const reply = await api('POST', `/api/v1/threads/${id}/messages`, { id: 'x', content: 'Hi' });
    expect(reply.statusCode).toBe(409);
    expect(await t.database.db.selectFrom('messaging_messages').selectAll().execute()).toEqual(
      before,
    );
    const denied = (await audits('messaging.message.send')).filter((r) => r.outcome === 'denied');
    expect(denied).toHaveLength(1);
  });

  it('sends a message, with its id in the Location header, and refuses blank text, a wrong customer or an unknown thread', async () => {
    await patient('demo-kim', 'kim@patients.test', 'Kim', 'Lee');
    const { id, customerId } = (await start('kim@patients.test')).json();

    const sent = await send(id, customerId, '  See you on Monday.  ');
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().content).toBe('See you on Monday.');
    expect(sent.headers.location).toBe(
      `/internal/messaging/groups/${id}/messages/${sent.json().id}`,
    );

    const blank = await send(id, customerId, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toMatch(/content must not be empty/);
    const wrong = await send(id, 'demo-someone-else', 'Hello');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/not demo-someone-else/);
    const unknown = await send('00000000-0000-4000-8000-000000000000', customerId, 'Hello');
    expect(unknown.statusCode).toBe(404);
    expect((await staff('GET', '/internal/messaging/groups/nope/messages')).statusCode).toBe(404);
    const unknownEmail = await start('nobody@patients.test');
    expect(unknownEmail.statusCode).toBe(404);
    expect(unknownEmail.json().message).toMatch(/No customer with the email/);

    // Two messages in all: the first and the one sent; the refusals changed nothing.
    expect(
      (await staff('GET', `/internal/messaging/groups/${id}/messages`)).json().items,
    ).toHaveLength(2);
  });

  it('needs patient:communication:all; a restricted patient needs the restricted privilege', async () => {
    expect(
      (await staff('GET', '/internal/messaging/groups', undefined, annotator)).statusCode,
    ).toBe(403);
    expect((await start('sam@patients.test', 'Hello', annotator)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/internal/messaging/groups' });
    expect(anonymous.statusCode).toBe(401);
    expect(
      (
        await api('POST', '/api/v1/threads/00000000-0000-4000-8000-000000000000/messages', {
          id: 'a',
          content: 'b',
        })
      ).statusCode,
    ).toBe(404);
    const noKey = await t.app.inject({ method: 'PUT', url: '/api/v1/consumers/x', payload: {} });
    expect(noKey.statusCode).toBe(401);

    // Rangi's conversation went to the restricted queue: only a lead may message him.
    await patient('demo-rangi', 'rangi@patients.test', 'Rangi', 'Parata');
    await t.database.db
      .insertInto('conversations')
      .values({ id: 'conv-rangi', tenant: 'acme-clinic', consumer_id: 'demo-rangi' })
      .execute();
    await sql`update conversations set restricted = true where id = 'conv-rangi'`.execute(
      t.database.db,
    );
    const refused = await start('rangi@patients.test');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(EXCEPTION_ERRORS.restrictedPatient);
    const allowed = await start('rangi@patients.test', 'Hello Rangi', lead);
    expect(allowed.statusCode).toBe(201);
    expect((await staff('GET', '/internal/messaging/groups')).json().items).toEqual([]);
    expect(
      (await staff('GET', `/internal/messaging/groups/${allowed.json().id}/messages`)).statusCode,
    ).toBe(403);
    await sql`delete from conversations where id = 'conv-rangi'`.execute(t.database.db);
  });
});
