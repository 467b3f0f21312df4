import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { openSocket } from '../test/socket-client.ts';
import { tokenForRoles } from '../test/tokens.ts';
import { findUnstorableText } from './storable-text.ts';

/**
 * Text PostgreSQL cannot store (NUL, lone surrogates) used to answer 500 and lose the message.
 * The story: the assistant and a technician send it anywhere; each gets a 400 (or an error event)
 * naming the field, and nothing is stored; the same message without it goes through.
 */
describe('text PostgreSQL refuses, refused at the edge', () => {
  let t: TestApp;
  let key: string;
  let technician: string;
  beforeAll(async () => {
    t = await startTestApp({ listen: true });
    const admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'assistant-test' },
    });
    key = created.json<{ key: string }>().key;
    technician = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const api = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  const messages = async () =>
    t.database.db.selectFrom('conversation_messages').select('content').execute();

  it('refuses a patient message holding NUL with a 400 naming the field, stores nothing, then takes it without', async () => {
    const conversation = await api('PUT', '/api/v1/conversations/conv-nul', {
      tenant: 'acme',
      botConversationId: 'bot-conv-nul',
      consumer: { id: 'patient-1', name: { given: 'Maya', family: 'Okafor' } },
    });
    expect(conversation.statusCode, conversation.body).toBe(201);

    const refused = await api('POST', '/api/v1/conversations/conv-nul/messages', {
      id: 'm1',
      direction: 'IN',
      content: 'chest pain\u0000 now',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'Bad Request',
      message:
        'body.content holds a NUL character (U+0000), which cannot be stored: remove it, then send it again.',
      details: [
        {
          path: 'body.content',
          message: 'holds a NUL character (U+0000), which cannot be stored: remove it',
        },
      ],
    });
    const surrogate = await api('POST', '/api/v1/conversations/conv-nul/messages', {
      id: 'm1',
      direction: 'IN',
      content: 'chest pain \ud83d now',
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json<{ message: string }>().message).toMatch(
      /^body\.content holds a lone UTF-16 surrogate \(U\+D83D\)/,
    );
    expect(await messages()).toEqual([]);

    const taken = await api('POST', '/api/v1/conversations/conv-nul/messages', {
      id: 'm1',
      direction: 'IN',
      content: 'chest pain now 😟',
    });
    expect(taken.statusCode, taken.body).toBeLessThan(300);
    expect(await messages()).toEqual([{ content: 'chest pain now 😟' }]);
  });

  it('refuses NUL in a path parameter and in a query with a 400, not a 500', async () => {
    const path = await t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/chief%00complaint/_context_menu',
      headers: { authorization: `Bearer ${technician}`, 'x-tenant-id': 'acme' },
    });
    expect(path.statusCode, path.body).toBe(400);
    expect(path.json()).toMatchObject({ details: [{ path: 'params.intent' }] });

    const query = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events?after=%00',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toMatchObject({ details: [{ path: 'query.after' }] });
  });

  it('answers a socket frame holding NUL with an error event naming the field', async () => {
    const socket = await openSocket(t.baseUrl, '/ws/federated', technician);
    try {
      await socket.next('technician.session.paused');
      socket.send('message.annotation', {
        jobId: '0b8f7a52-58f4-4c3e-9d59-2f1b7fb1d2a4',
        action: 'annotate',
        conversationId: 'conv\u0000',
      });
      const error = await socket.next('error');
      expect(error.data.message).toBe(
        'data.conversationId holds a NUL character (U+0000), which cannot be stored: remove it, then send the event again.',
      );
    } finally {
      socket.ws.close();
      await socket.closed;
    }
  });

  it('finds the first unstorable string anywhere, keys included, and passes valid Unicode', () => {
    expect(findUnstorableText({ a: ['ok', { b: 'x\u0000' }] }, 'body')).toMatchObject({
      path: 'body.a.1.b',
    });
    expect(findUnstorableText({ 'k\u0000': 1 }, 'body')).toMatchObject({ path: 'body (a key)' });
    expect(findUnstorableText('\udc00 low alone', 'query')).toMatchObject({ path: 'query' });
    expect(findUnstorableText({ text: 'naïve 😟 ∑ \u200b' }, 'body')).toBeNull();
    expect(findUnstorableText(Buffer.from([0, 0, 0]), 'body')).toBeNull();
  });
});
