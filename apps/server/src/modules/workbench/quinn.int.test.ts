import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { tokenForRoles } from '../../test/tokens.ts';
import {
  assistantFailedMessage,
  assistantNotFoundMessage,
  assistantTimeoutMessage,
} from './service.ts';

const MENU = { menu: { Medication: ['inhaler', 'tablets'], Dose: null }, derived: ['medication'] };

interface PendingRequest {
  id: string;
  kind: string;
  tenant: string;
  body: Record<string, unknown>;
}

describe("the portal's questions to the assistant (context menu, memory, message operations)", () => {
  let t: TestApp;
  let ann: string;
  let medic: string;
  let approver: string;
  let admin: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: { ASSISTANT_REQUEST_TIMEOUT_SECONDS: '2', CONTEXT_MENU_CACHE_SECONDS: '300' },
    });
    ann = (await tokenForRoles(t, 'ann@example.test', ['annotator'])).token;
    medic = (await tokenForRoles(t, 'mel@example.test', ['medical'])).token;
    approver = (await tokenForRoles(t, 'abe@example.test', ['approver'])).token;
    admin = (await tokenForRoles(t, 'ada@example.test', ['admin'])).token;
    const created = await t.app.inject({
      method: 'POST',
      url: '/internal/integration/api-keys',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: 'assistant-test' },
    });
    expect(created.statusCode, created.body).toBe(201);
    key = created.json().key;
  });
  beforeEach(async () => {
    await sql`delete from assistant_requests`.execute(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const asStaff = (token: string, tenant: string | null = 'acme-clinic') => ({
    authorization: `Bearer ${token}`,
    ...(tenant === null ? {} : { 'x-tenant-id': tenant }),
  });
  const asAssistant = () => ({ authorization: `Bearer ${key}` });

  /** The assistant's long poll: the next pending question. */
  const nextRequest = async (): Promise<PendingRequest> => {
    const polled = await t.app.inject({
      method: 'GET',
      url: '/api/v1/requests?wait=5',
      headers: asAssistant(),
    });
    expect(polled.statusCode, polled.body).toBe(200);
    const [request] = polled.json<{ requests: PendingRequest[] }>().requests;
    if (!request) {
      throw new Error('no request came');
    }
    return request;
  };
  const answer = (id: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/requests/${id}/answer`,
      headers: asAssistant(),
      payload: body as Record<string, unknown>,
    });

  it("an intent's context menu comes from the assistant, then from the cache", async () => {
    // First, Ann's panel asks for the menu of 'repeat_prescription'. The assistant, long-polling,
    // reads the question at once and answers it; Ann's request answers with that menu.
    const asked = t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/repeat_prescription/_context_menu',
      headers: asStaff(ann),
    });
    const request = await nextRequest();
    expect(request).toMatchObject({
      kind: 'intent.context_menu',
      tenant: 'acme-clinic',
      body: { intent: 'repeat_prescription' },
    });
    const answered = await answer(request.id, { answer: MENU });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({ id: request.id, state: 'answered' });
    const menu = await asked;
    expect(menu.statusCode).toBe(200);
    expect(menu.json()).toEqual(MENU);

    // Second, the same question within the cache time is answered without asking again.
    const again = await t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/repeat_prescription/_context_menu',
      headers: asStaff(medic),
    });
    expect(again.json()).toEqual(MENU);
    const polled = await t.app.inject({
      method: 'GET',
      url: '/api/v1/requests',
      headers: asAssistant(),
    });
    expect(polled.json()).toEqual({ requests: [] });
    // Another tenant's menu is its own question.
    const other = t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/repeat_prescription/_context_menu',
      headers: asStaff(ann, 'harbour-health'),
    });
    const second = await nextRequest();
    expect(second.tenant).toBe('harbour-health');
    await answer(second.id, { answer: { menu: {}, derived: [] } });
    expect((await other).json()).toEqual({ menu: {}, derived: [] });
  });

  it('an answer that breaks the schema is refused with what to fix and changes nothing', async () => {
    const asked = t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/hpi/_context_menu',
      headers: asStaff(ann),
    });
    const request = await nextRequest();
    const wrong = await answer(request.id, { answer: { menu: 'not a map' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/answer to a intent\.context_menu request is not valid/);
    const details = wrong.json<{ details: { path: string }[] }>().details;
    expect(details.map((d) => d.path)).toEqual(
      expect.arrayContaining(['body.answer.menu', 'body.answer.derived']),
    );
    const neither = await answer(request.id, { maybe: true });
    expect(neither.statusCode).toBe(400);
    // Still pending: the corrected answer goes through.
    expect((await answer(request.id, { answer: MENU })).statusCode).toBe(200);
    expect((await asked).json()).toEqual(MENU);
    // A second answer changes nothing.
    const twice = await answer(request.id, { answer: { menu: {}, derived: [] } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/already answered/);
  });

  it('the assistant saying it cannot answer is a 502 with its reason', async () => {
    const asked = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/conversations/c-9/_memory',
      headers: asStaff(ann),
    });
    const request = await nextRequest();
    expect(request).toMatchObject({ kind: 'conversation.memory', body: { conversationId: 'c-9' } });
    await answer(request.id, { error: 'no conversation c-9' });
    const failed = await asked;
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({
      error: 'Bad Gateway',
      message: assistantFailedMessage('no conversation c-9'),
    });
  });

  it('an unknown conversation or intent at the assistant is a 404 for the caller, not a 502', async () => {
    // Ann asks for the memory of a conversation the assistant never had: it says so with the
    // reason not_found, and Ann's request answers 404 in the one error shape.
    const memory = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/conversations/c-unknown/_memory',
      headers: asStaff(ann),
    });
    const first = await nextRequest();
    const said = await answer(first.id, {
      error: 'no conversation c-unknown',
      reason: 'not_found',
    });
    expect(said.statusCode, said.body).toBe(200);
    expect((await memory).statusCode).toBe(404);
    expect((await memory).json()).toEqual({
      error: 'Not Found',
      message: assistantNotFoundMessage('no conversation c-unknown'),
    });
    const row = await t.database.db
      .selectFrom('assistant_requests')
      .select(['state', 'error', 'error_reason'])
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      state: 'failed',
      error: 'no conversation c-unknown',
      error_reason: 'not_found',
    });

    // The same for the context menu of an intent it does not know.
    const menu = t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/sick_note/_context_menu',
      headers: asStaff(ann),
    });
    const second = await nextRequest();
    await answer(second.id, { error: "no context menu for 'sick_note'", reason: 'not_found' });
    expect((await menu).statusCode).toBe(404);

    // A reason the API does not know is a 400 that names the field, and changes nothing.
    const third = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/conversations/c-2/_memory',
      headers: asStaff(ann),
    });
    const request = await nextRequest();
    const odd = await answer(request.id, { error: 'gone', reason: 'vanished' });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().error).toBe('Bad Request');
    await answer(request.id, { error: 'busy' });
    expect((await third).statusCode).toBe(502);
  });

  it('no answer in time is a 504, and a late answer is refused', async () => {
    const started = Date.now();
    const late = await t.app.inject({
      method: 'POST',
      url: '/internal/quinn/conversations/c-1/_memory',
      headers: asStaff(ann),
    });
    expect(late.statusCode).toBe(504);
    expect(late.json().message).toBe(assistantTimeoutMessage(2));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    const row = await t.database.db
      .selectFrom('assistant_requests')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('expired');
    // Nobody is handed an expired question; answering it anyway is a 409.
    const polled = await t.app.inject({
      method: 'GET',
      url: '/api/v1/requests',
      headers: asAssistant(),
    });
    expect(polled.json()).toEqual({ requests: [] });
    const refused = await answer(row.id, { answer: { conversationId: 'c-1', slots: {} } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/expired .*the portal stopped waiting/);
  });

  it('message.intents, message.next and message.redirect answer with an event to submit', async () => {
    const intents = {
      message: { conversationId: 'c-1', messageId: 'm-1', userId: 'p-1' },
      entities: [{ start: 0, end: 6, extract: 'inhaler', category: 'repeat_prescription' }],
    };
    const event = {
      type: 'message.annotation',
      data: { action: 'repeat_prescription', conversationId: 'c-1', messageId: 'm-1' },
    };
    const asked = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/messages/intents',
      headers: asStaff(ann),
      payload: intents,
    });
    const request = await nextRequest();
    expect(request).toMatchObject({
      kind: 'message.intents',
      tenant: 'acme-clinic',
      body: intents,
    });
    await answer(request.id, { answer: event });
    expect((await asked).json()).toEqual(event);

    // The tenant may come as a parameter instead of the header.
    const next = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/messages/next?tenant=harbour-health',
      headers: asStaff(medic, null),
      payload: { conversationId: 'c-2', userId: 'p-2' },
    });
    const nextRequestRow = await nextRequest();
    expect(nextRequestRow).toMatchObject({
      kind: 'message.next',
      tenant: 'harbour-health',
      body: { conversationId: 'c-2', userId: 'p-2' },
    });
    await answer(nextRequestRow.id, { answer: event });
    expect((await next).statusCode).toBe(200);

    const redirect = t.app.inject({
      method: 'POST',
      url: '/internal/quinn/messages/redirect',
      headers: asStaff(ann),
      payload: { conversationId: 'c-3', userId: 'p-3', messageId: 'm-3' },
    });
    const redirectRow = await nextRequest();
    expect(redirectRow).toMatchObject({ kind: 'message.redirect' });
    // An answer that is not a submission event is refused.
    const bad = await answer(redirectRow.id, { answer: { type: 'nonsense', data: {} } });
    expect(bad.statusCode).toBe(400);
    await answer(redirectRow.id, { answer: event });
    expect((await redirect).json()).toEqual(event);
  });

  it('a bad message operation is refused with what to fix, and the assistant is not asked', async () => {
    const cases = [
      {
        url: '/internal/quinn/messages/intents',
        headers: asStaff(ann),
        payload: { message: { conversationId: 'c-1' }, entities: [] },
        message: /Invalid body of message\.intents: body\.message\.messageId/,
      },
      {
        url: '/internal/quinn/messages/redirect',
        headers: asStaff(ann),
        payload: { conversationId: 'c-1', userId: 'p-1' },
        message: /body\.messageId must be the message id/,
      },
      {
        url: '/internal/quinn/messages/next',
        headers: asStaff(ann, null),
        payload: { conversationId: 'c-1', userId: 'p-1' },
        message: /Name the tenant of the job/,
      },
      {
        url: '/internal/quinn/messages/shout',
        headers: asStaff(ann),
        payload: {},
        message: /params\.operation must be one of intents, next, redirect/,
      },
    ];
    for (const { url, headers, payload, message } of cases) {
      const refused = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message).toMatch(message);
    }
    const noTenant = await t.app.inject({
      method: 'GET',
      url: '/internal/quinn/intents/hpi/_context_menu',
      headers: asStaff(ann, null),
    });
    expect(noTenant.statusCode).toBe(400);
    expect(noTenant.json().details[0].path).toBe('headers.x-tenant-id');
    const rows = await t.database.db.selectFrom('assistant_requests').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('needs a signed-in technician on the portal side and an API key on the assistant side', async () => {
    const portal = [
      { method: 'GET', url: '/internal/quinn/intents/hpi/_context_menu' },
      { method: 'POST', url: '/internal/quinn/conversations/c-1/_memory' },
      { method: 'POST', url: '/internal/quinn/messages/next' },
    ] as const;
    for (const route of portal) {
      const anonymous = await t.app.inject({ ...route, headers: { 'x-tenant-id': 'acme' } });
      expect(anonymous.statusCode, route.url).toBe(401);
      const forbidden = await t.app.inject({ ...route, headers: asStaff(approver) });
      expect(forbidden.statusCode, route.url).toBe(403);
    }
    const noKey = await t.app.inject({ method: 'GET', url: '/api/v1/requests' });
    expect(noKey.statusCode).toBe(401);
    const staffToken = await t.app.inject({
      method: 'POST',
      url: '/api/v1/requests/0f8fad5b-d9cb-469f-a165-70867728950e/answer',
      headers: { authorization: `Bearer ${ann}` },
      payload: { answer: {} },
    });
    expect(staffToken.statusCode).toBe(401);
    const unknown = await answer('0f8fad5b-d9cb-469f-a165-70867728950e', { answer: {} });
    expect(unknown.statusCode).toBe(404);
  });

  it('two polls never get the same question', async () => {
    const asked = [1, 2, 3].map((n) =>
      t.app.inject({
        method: 'GET',
        url: `/internal/quinn/intents/intent-${n}/_context_menu`,
        headers: asStaff(ann),
      }),
    );
    // Let the three questions be written.
    for (let i = 0; i < 50; i++) {
      const rows = await t.database.db.selectFrom('assistant_requests').select('id').execute();
      if (rows.length === 3) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/v1/requests?limit=2', headers: asAssistant() }),
      t.app.inject({ method: 'GET', url: '/api/v1/requests?limit=2', headers: asAssistant() }),
    ]);
    const ids = [...a.json().requests, ...b.json().requests].map((r: PendingRequest) => r.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      await answer(id, { answer: { menu: {}, derived: [] } });
    }
    await Promise.all(asked);
  });
});
