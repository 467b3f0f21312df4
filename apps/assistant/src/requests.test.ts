import { describe, expect, it } from 'vitest';
import type { AssistantRequestView } from '@loopdesk/contracts/quinn.ts';
import { ASSISTANT_ANSWERS } from '@loopdesk/contracts/quinn.ts';
import type { IntegrationClient } from './client.ts';
import { answerRequest, CONTEXT_MENUS, followRequests } from './requests.ts';

const request = (
  kind: AssistantRequestView['kind'],
  body: Record<string, unknown>,
): AssistantRequestView => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  kind,
  tenant: 'acme-clinic',
  body,
  createdAt: new Date().toISOString(),
  expiresAt: new Date().toISOString(),
});

const memories = new Map([['c-1', { chief_complaints: 'pounding headache' }]]);

describe("the demo assistant answers the portal's questions", () => {
  it('gives the context menu of the intents it knows, and says so for the others', () => {
    const known = answerRequest(request('intent.context_menu', { intent: 'hpi' }), memories);
    expect(known).toEqual({ answer: CONTEXT_MENUS.hpi });
    expect(ASSISTANT_ANSWERS['intent.context_menu'].safeParse(CONTEXT_MENUS.hpi).success).toBe(
      true,
    );
    expect(
      answerRequest(request('intent.context_menu', { intent: 'sick_note' }), memories),
    ).toEqual({ error: "no context menu for the intent 'sick_note'", reason: 'not_found' });
  });

  it('remembers what the technicians annotated in each conversation', () => {
    expect(
      answerRequest(request('conversation.memory', { conversationId: 'c-1' }), memories),
    ).toEqual({
      answer: { conversationId: 'c-1', slots: { chief_complaints: 'pounding headache' } },
    });
    expect(
      answerRequest(request('conversation.memory', { conversationId: 'c-9' }), memories),
    ).toEqual({ error: "no conversation c-9 in this assistant's memory", reason: 'not_found' });
  });

  it("answers message.intents with the agenda's annotation, a '+' intent first", () => {
    const message = { conversationId: 'c-1', messageId: 'm-1', userId: 'p-1' };
    const entities = [
      { start: 0, end: 6, extract: 'repeat', category: 'repeat_prescription' },
      { start: 7, end: 11, extract: 'rash', category: 'urgent+hpi' },
      { start: 7, end: 11, extract: 'rash', category: 'sx' },
    ];
    const answered = answerRequest(request('message.intents', { message, entities }), memories);
    expect(answered).toEqual({
      answer: {
        type: 'message.annotation',
        data: {
          action: 'urgent+hpi',
          ...message,
          entities,
          slot: { id: '', type: 'intent', code: 'intent', value: 'urgent+hpi' },
        },
      },
    });
    expect(
      ASSISTANT_ANSWERS['message.intents'].safeParse((answered as { answer: unknown }).answer)
        .success,
    ).toBe(true);
    expect(
      answerRequest(request('message.intents', { message, entities: [entities[2]] }), memories),
    ).toEqual({ error: 'the message carries no intent annotation' });
  });

  it('answers message.next and message.redirect with a portal event to submit', () => {
    expect(
      answerRequest(request('message.next', { conversationId: 'c-1', userId: 'p-1' }), memories),
    ).toEqual({
      answer: {
        type: 'dh.portal.hitl.event',
        data: { action: 'next', conversationId: 'c-1', userId: 'p-1' },
      },
    });
    expect(
      answerRequest(
        request('message.redirect', { conversationId: 'c-1', userId: 'p-1', messageId: 'm-1' }),
        memories,
      ),
    ).toMatchObject({ answer: { data: { action: 'redirect', messageId: 'm-1' } } });
  });

  it('follows the long poll and answers every question it reads', async () => {
    const stop = new AbortController();
    const answered: { id: string; body: unknown }[] = [];
    let polls = 0;
    const client = {
      requests: (wait: number) => {
        polls += 1;
        expect(wait).toBe(20);
        if (polls === 2) {
          stop.abort();
        }
        return Promise.resolve({
          requests: polls === 1 ? [request('intent.context_menu', { intent: 'hpi' })] : [],
        });
      },
      answer: (id: string, body: unknown) => {
        answered.push({ id, body });
        return Promise.resolve({});
      },
    } as unknown as IntegrationClient;
    await followRequests(client, memories, {
      waitSeconds: 20,
      signal: stop.signal,
      onError: (error) => {
        throw error;
      },
    });
    expect(answered).toEqual([
      { id: '0f8fad5b-d9cb-469f-a165-70867728950e', body: { answer: CONTEXT_MENUS.hpi } },
    ]);
  });
});
