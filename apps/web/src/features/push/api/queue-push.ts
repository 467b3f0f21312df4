import { useMutation } from '@tanstack/react-query';
import {
  ANNOUNCEMENT_PURPOSE,
  PUSH_NOTIFICATION_TYPE,
  type NotificationQueued,
  type PushNotificationOptions,
} from '@loopdesk/contracts/notifications.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** The announcement under review (spec 3 §3 "Push announcement"). */
export interface Announcement {
  readonly title: string;
  readonly content: string;
}

/** The answer and its status: only 202 means queued (spec 3 §8 tells "queued" from "unable"). */
export interface QueueAnswer {
  readonly status: number;
  readonly queued: NotificationQueued;
}

const options = (announcement: Announcement): PushNotificationOptions => ({
  purpose: ANNOUNCEMENT_PURPOSE,
  title: announcement.title,
  content: announcement.content,
  data: {},
});

/** `POST /internal/notifications/_broadcast` (spec 3 §7 "Push"). */
export async function broadcast(announcement: Announcement): Promise<QueueAnswer> {
  let status = 0;
  const queued = await callRoute('POST', '/internal/notifications/_broadcast', {
    body: { type: PUSH_NOTIFICATION_TYPE, pushNotificationOptions: options(announcement) },
    onResponse: (response) => {
      status = response.status;
    },
  });
  return { status, queued };
}

/** `POST /internal/consumers/{id}/communications/_test` with medium 'push': to one patient. */
export async function sendTest(
  consumerId: string,
  announcement: Announcement,
): Promise<QueueAnswer> {
  let status = 0;
  const queued = await callRoute('POST', '/internal/consumers/:id/communications/_test', {
    params: { id: consumerId },
    body: { medium: 'push', pushNotificationOptions: options(announcement) },
    onResponse: (response) => {
      status = response.status;
    },
  });
  return { status, queued };
}

export function useBroadcast() {
  return useMutation({ mutationFn: broadcast });
}

export function useSendTest() {
  return useMutation({
    mutationFn: ({
      consumerId,
      announcement,
    }: {
      consumerId: string;
      announcement: Announcement;
    }) => sendTest(consumerId, announcement),
  });
}
