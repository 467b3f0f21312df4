import { z } from 'zod';

/**
 * Telehealth deep links (issue 15 item 7; the spec names the `/deep-link-generator` screen only,
 * docs/deep-links.md is the design): a signed link that opens one thing for one patient — the
 * video visit of an appointment, or a conversation — until it expires.
 */

/** What a link opens: each link has exactly one purpose, signed into it. */
export const DEEP_LINK_PURPOSES = ['telehealth.appointment', 'telehealth.conversation'] as const;
export const DeepLinkPurpose = z.enum(DEEP_LINK_PURPOSES, {
  message: `must be one of ${DEEP_LINK_PURPOSES.join(', ')}`,
});
export type DeepLinkPurpose = z.infer<typeof DeepLinkPurpose>;

/** How long a link may live, in minutes: from 5 minutes to 7 days. */
export const DEEP_LINK_MIN_MINUTES = 5;
export const DEEP_LINK_MAX_MINUTES = 7 * 24 * 60;

/** Body of `POST /internal/deep-links`. */
export const CreateDeepLinkBody = z
  .strictObject({
    purpose: DeepLinkPurpose,
    appointmentId: z.uuid({ message: 'must be an appointment id' }).optional(),
    conversationId: z.string().min(1).max(200).optional(),
    expiresInMinutes: z
      .number({ message: 'must be a number of minutes' })
      .int({ message: 'must be a whole number of minutes' })
      .min(DEEP_LINK_MIN_MINUTES, { message: `must be at least ${DEEP_LINK_MIN_MINUTES}` })
      .max(DEEP_LINK_MAX_MINUTES, { message: `must be at most ${DEEP_LINK_MAX_MINUTES} (7 days)` }),
  })
  .superRefine((body, ctx) => {
    if (body.purpose === 'telehealth.appointment' && !body.appointmentId) {
      ctx.addIssue({
        code: 'custom',
        path: ['appointmentId'],
        message: 'is required for an appointment link',
      });
    }
    if (body.purpose === 'telehealth.conversation' && !body.conversationId) {
      ctx.addIssue({
        code: 'custom',
        path: ['conversationId'],
        message: 'is required for a conversation link',
      });
    }
  });
export type CreateDeepLinkBody = z.infer<typeof CreateDeepLinkBody>;

/** What a link says, signed: its purpose, its patient, what it opens and until when. */
export const DeepLinkClaims = z.object({
  linkId: z.string(),
  purpose: DeepLinkPurpose,
  patient: z.string().describe('the patient’s id (or email when the appointment names no id)'),
  subject: z.string().describe('the appointment or conversation the link opens'),
  expiresAt: z.string().describe('ISO 8601 date-time'),
});
export type DeepLinkClaims = z.infer<typeof DeepLinkClaims>;

/** Answer of `POST /internal/deep-links`: the link, its token and its claims. */
export const DeepLink = DeepLinkClaims.extend({
  url: z.string(),
  token: z.string(),
});
export type DeepLink = z.infer<typeof DeepLink>;

/** Body of `POST /api/v1/deep-links/_verify`: the patient app checks a link before opening it. */
export const VerifyDeepLinkBody = z.strictObject({
  token: z.string().min(1).max(2000),
  purpose: DeepLinkPurpose.describe('what the app is about to open: a link for another is refused'),
});
export type VerifyDeepLinkBody = z.infer<typeof VerifyDeepLinkBody>;

/** Query of the public `GET /telehealth/join?token=…`, where the link lands. */
export const JoinQuery = z.object({ token: z.string().max(2000).optional() });
