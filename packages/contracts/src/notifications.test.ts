import { describe, expect, it } from 'vitest';
import {
  BroadcastBody,
  CommunicationTestBody,
  NotificationQueued,
  PushAnnouncement,
} from './notifications.ts';

// The broadcast body of spec 3 §7.
const broadcast = {
  type: 'PUSH_NOTIFICATION',
  pushNotificationOptions: {
    purpose: 'announcement',
    title: 'Clinic closed on Friday',
    content: 'The clinic is closed this Friday for staff training.',
    data: { link: 'https://example.test/news' },
  },
};

describe('push notification schemas', () => {
  it('reads a broadcast and the queued answer', () => {
    const body = BroadcastBody.parse(broadcast);
    expect(body.pushNotificationOptions.title).toBe('Clinic closed on Friday');
    expect(NotificationQueued.safeParse({ id: 'n1' }).success).toBe(true);
    expect(NotificationQueued.safeParse({}).success).toBe(false);
  });

  it('refuses a title or content under 10 characters (spec 3 §5)', () => {
    const options = broadcast.pushNotificationOptions;
    const short = BroadcastBody.safeParse({
      ...broadcast,
      pushNotificationOptions: { ...options, title: 'Closed' },
    });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe('must be at least 10 characters');
    expect(
      BroadcastBody.safeParse({
        ...broadcast,
        pushNotificationOptions: { ...options, content: 'x' },
      }).success,
    ).toBe(false);
    expect(
      PushAnnouncement.safeParse({ type: 'announcement', title: 'Short', content: options.content })
        .success,
    ).toBe(false);
  });

  it('refuses another type or purpose, and a missing pushNotificationOptions', () => {
    expect(BroadcastBody.safeParse({ ...broadcast, type: 'EMAIL' }).success).toBe(false);
    expect(
      BroadcastBody.safeParse({
        ...broadcast,
        pushNotificationOptions: { ...broadcast.pushNotificationOptions, purpose: 'marketing' },
      }).success,
    ).toBe(false);
    expect(BroadcastBody.safeParse({ type: 'PUSH_NOTIFICATION' }).success).toBe(false);
  });

  it("sends a test with medium 'push' only (spec 3 §7)", () => {
    expect(CommunicationTestBody.safeParse({ medium: 'push' }).success).toBe(true);
    expect(
      CommunicationTestBody.safeParse({
        medium: 'push',
        pushNotificationOptions: broadcast.pushNotificationOptions,
      }).success,
    ).toBe(true);
    expect(CommunicationTestBody.safeParse({ medium: 'sms' }).success).toBe(false);
    expect(CommunicationTestBody.safeParse({}).success).toBe(false);
  });
});
