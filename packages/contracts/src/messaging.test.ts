import { describe, expect, it } from 'vitest';
import {
  NoBody,
  SendThreadMessageBody,
  StartedThread,
  StartThreadBody,
  ThreadList,
  ThreadMessageList,
} from './messaging.ts';

// A thread with every field spec 3 §3 lists.
const message = {
  id: 'm1',
  content: 'Your test results are in.',
  createdOn: '2026-11-26T01:00:00Z',
  direction: 'OUT',
  author: { id: 'staff-1', name: 'Ann Reviewer' },
};
const thread = {
  id: 't1',
  createdOn: '2026-11-26T00:59:00Z',
  customer: { id: 'consumer-1', name: { given: 'Pat', family: 'Smith' } },
  messages: [message],
  unreadIn: 0,
  unreadOut: 1,
};

describe('direct messaging schemas', () => {
  it('reads the open threads and a thread’s messages', () => {
    const list = ThreadList.parse({ items: [thread] });
    expect(list.items[0]?.customer.name.family).toBe('Smith');
    expect(ThreadMessageList.parse({ items: [message] }).items[0]?.direction).toBe('OUT');
  });

  it('refuses a thread without its unread counts, or a message with direction SENT', () => {
    const { unreadIn: _unreadIn, ...withoutUnread } = thread;
    expect(ThreadList.safeParse({ items: [withoutUnread] }).success).toBe(false);
    expect(
      ThreadMessageList.safeParse({ items: [{ ...message, direction: 'SENT' }] }).success,
    ).toBe(false);
  });

  it("starts a thread for a customer's email (spec 3 §7) and reads id, customerId, messageId", () => {
    const body = StartThreadBody.parse({
      content: '  Hello Pat  ',
      customer: { system: 'email', code: 'id', value: 'pat@example.test' },
    });
    expect(body.content).toBe('Hello Pat');
    expect(
      StartedThread.safeParse({ id: 't1', customerId: 'consumer-1', messageId: 'm1' }).success,
    ).toBe(true);
    expect(StartedThread.safeParse({ id: 't1', customerId: 'consumer-1' }).success).toBe(false);
  });

  it('refuses blank text, a customer by the wrong system, or an email that is not one', () => {
    const customer = { system: 'email', code: 'id', value: 'pat@example.test' };
    expect(StartThreadBody.safeParse({ content: '   ', customer }).success).toBe(false);
    expect(
      StartThreadBody.safeParse({ content: 'Hi', customer: { ...customer, system: 'decoded' } })
        .success,
    ).toBe(false);
    expect(
      StartThreadBody.safeParse({ content: 'Hi', customer: { ...customer, value: 'pat' } }).success,
    ).toBe(false);
  });

  it("sends a message to a thread with customer {system 'decoded'} (spec 3 §7)", () => {
    const customer = { system: 'decoded', code: 'id', value: 'consumer-1' };
    expect(SendThreadMessageBody.safeParse({ content: 'On my way', customer }).success).toBe(true);
    expect(SendThreadMessageBody.safeParse({ content: 'On my way' }).success).toBe(false);
    expect(
      SendThreadMessageBody.safeParse({ content: 'Hi', customer: { ...customer, system: 'email' } })
        .success,
    ).toBe(false);
  });

  it('archive and mark-as-read take no body, or an empty one, and nothing else', () => {
    expect(NoBody.safeParse(undefined).success).toBe(true);
    expect(NoBody.safeParse(null).success).toBe(true);
    expect(NoBody.safeParse({}).success).toBe(true);
    expect(NoBody.safeParse({ read: true }).success).toBe(false);
  });
});
