import { z } from 'zod';

/**
 * Push broadcast (spec 3 §2 "Push broadcast", §3 "Push announcement", §5, §7 "Push"): an
 * announcement queued for every customer, and a test send to one consumer.
 */

/** Title and content need at least this many characters (spec 3 §5, §9). */
export const PUSH_MIN_CHARS = 10;
export const PUSH_TITLE_MAX_CHARS = 200;
export const PUSH_CONTENT_MAX_CHARS = 2000;

/** `type` of a broadcast (spec 3 §7). */
export const PUSH_NOTIFICATION_TYPE = 'PUSH_NOTIFICATION';
/** `pushNotificationOptions.purpose` of an announcement (spec 3 §7). */
export const ANNOUNCEMENT_PURPOSE = 'announcement';

const pushText = (max: number) =>
  z
    .string({ message: 'is required' })
    .trim()
    .min(PUSH_MIN_CHARS, { message: `must be at least ${PUSH_MIN_CHARS} characters` })
    .max(max, { message: `must be at most ${max} characters` });

/** Push announcement (spec 3 §3): type, title, content — what the form reviews before sending. */
export const PushAnnouncement = z.object({
  type: z.string().min(1),
  title: pushText(PUSH_TITLE_MAX_CHARS),
  content: pushText(PUSH_CONTENT_MAX_CHARS),
});
export type PushAnnouncement = z.infer<typeof PushAnnouncement>;

/** `pushNotificationOptions` (spec 3 §7): purpose 'announcement', title, content, data. */
export const PushNotificationOptions = z.object({
  purpose: z.literal(ANNOUNCEMENT_PURPOSE, { message: `must be '${ANNOUNCEMENT_PURPOSE}'` }),
  title: pushText(PUSH_TITLE_MAX_CHARS),
  content: pushText(PUSH_CONTENT_MAX_CHARS),
  data: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('what the app receives with the notification (not shown in the spec)'),
});
export type PushNotificationOptions = z.infer<typeof PushNotificationOptions>;

/** Body of `POST /internal/notifications/_broadcast` (spec 3 §7): type 'PUSH_NOTIFICATION' and pushNotificationOptions. */
export const BroadcastBody = z.object({
  type: z.literal(PUSH_NOTIFICATION_TYPE, { message: `must be '${PUSH_NOTIFICATION_TYPE}'` }),
  pushNotificationOptions: PushNotificationOptions,
});
export type BroadcastBody = z.infer<typeof BroadcastBody>;

/**
 * Body of `POST /internal/consumers/{id}/communications/_test` (spec 3 §7 "with medium 'push'"):
 * a test send to one consumer, of the announcement under review when it is given.
 */
export const CommunicationTestBody = z.object({
  medium: z.literal('push', { message: "must be 'push'" }),
  pushNotificationOptions: PushNotificationOptions.optional(),
});
export type CommunicationTestBody = z.infer<typeof CommunicationTestBody>;

/** Answer (202) of `_broadcast` and `communications/_test` (spec 3 §8: "the notification has been queued"). */
export const NotificationQueued = z.looseObject({
  id: z.string().describe('the queued notification'),
});
export type NotificationQueued = z.infer<typeof NotificationQueued>;

/** The spec's messages of push broadcast (3 §8), verbatim; `{error}` is the failure's text. */
export const PUSH_MESSAGES = {
  queued: 'Success the notification has been queued.',
  unable: 'We were unable to send out the push notification.',
  error: 'Error trying to queue. Try again. If the problem persists contact support. {error}',
} as const;

/** `data` of the `notification.broadcast` and `notification.test` outbox events. */
export const NotificationEventData = z.object({
  notification: z.object({
    id: z.string(),
    kind: z.enum(['broadcast', 'test']),
    consumerId: z.string().nullable().describe('the one patient of a test send; null: everyone'),
    type: z.literal(PUSH_NOTIFICATION_TYPE),
    purpose: z.literal(ANNOUNCEMENT_PURPOSE),
    title: z.string(),
    content: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});
export type NotificationEventData = z.infer<typeof NotificationEventData>;

/** Params of `/api/v1/notifications/{id}/receipt`. */
export const NotificationParams = z.object({
  id: z.uuid({ message: 'must be a notification id (a UUID)' }),
});
export type NotificationParams = z.infer<typeof NotificationParams>;

/** Body of `POST /api/v1/notifications/{id}/receipt`: the assistant fanned it out to devices. */
export const NotificationReceiptBody = z.strictObject({
  devices: z.number().int().min(0).max(100_000_000).describe('devices it reached'),
});
export type NotificationReceiptBody = z.infer<typeof NotificationReceiptBody>;

/** Answer of the receipt. */
export const NotificationReceipt = z.object({
  id: z.string(),
  devices: z.number().int(),
  deliveredOn: z.string(),
});
export type NotificationReceipt = z.infer<typeof NotificationReceipt>;
