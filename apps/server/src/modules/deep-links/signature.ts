import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeepLinkPurpose, type DeepLinkClaims } from '@loopdesk/contracts/deep-links.ts';

/** The version prefix of a token: a later format can be told apart. */
const VERSION = 'v1';

/** Why a token is refused; each says what to do. */
export type Refusal =
  | { kind: 'malformed'; message: string }
  | { kind: 'forged'; message: string }
  | { kind: 'expired'; message: string }
  | { kind: 'purpose'; message: string };

export const REFUSALS = {
  malformed:
    'This link is not a Loopdesk telehealth link: it is incomplete or was cut. Ask the clinic for a new one.',
  forged:
    'This link has been changed or was not made by Loopdesk: its signature does not match. Ask the clinic for a new one.',
  expired: (at: string) => `This link expired at ${at}. Ask the clinic for a new one.`,
  purpose: (purpose: string) =>
    `This link opens a ${purpose}, not what was asked: use it for what it was made for.`,
} as const;

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** The signing key: DEEP_LINK_SECRET, else derived from the session secret (every node the same). */
export function deepLinkKey(secret: string | undefined, sessionSecret: string): Buffer {
  return secret
    ? Buffer.from(secret)
    : createHmac('sha256', sessionSecret).update('loopdesk telehealth deep links').digest();
}

/**
 * Signs the claims of a link: `v1.<payload>.<HMAC-SHA256 of "v1.<payload>">`, base64url. The
 * payload holds the purpose, patient, subject, expiry and a random link id, so no part of it can
 * change without the signature failing.
 */
export function signDeepLink(
  key: Buffer,
  claims: Omit<DeepLinkClaims, 'linkId' | 'expiresAt'> & { expiresAt: Date },
): { token: string; claims: DeepLinkClaims } {
  const linkId = randomBytes(9).toString('base64url');
  const payload = {
    i: linkId,
    p: claims.purpose,
    u: claims.patient,
    s: claims.subject,
    e: Math.floor(claims.expiresAt.getTime() / 1000),
  };
  const body = `${VERSION}.${b64(JSON.stringify(payload))}`;
  const signature = b64(createHmac('sha256', key).update(body).digest());
  return {
    token: `${body}.${signature}`,
    claims: {
      linkId,
      purpose: claims.purpose,
      patient: claims.patient,
      subject: claims.subject,
      expiresAt: new Date(payload.e * 1000).toISOString(),
    },
  };
}

/** Checks a token's signature, expiry and purpose; the claims, or why it is refused. */
export function verifyDeepLink(
  key: Buffer,
  token: string,
  options: { now?: Date; purpose?: DeepLinkPurpose } = {},
): { ok: true; claims: DeepLinkClaims } | { ok: false; refusal: Refusal } {
  const parts = token.split('.');
  const [version, payloadPart, signaturePart] = parts;
  if (parts.length !== 3 || version !== VERSION || !payloadPart || !signaturePart) {
    return { ok: false, refusal: { kind: 'malformed', message: REFUSALS.malformed } };
  }
  const expected = createHmac('sha256', key).update(`${version}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, refusal: { kind: 'forged', message: REFUSALS.forged } };
  }
  let payload: { i?: unknown; p?: unknown; u?: unknown; s?: unknown; e?: unknown };
  try {
    payload = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    return { ok: false, refusal: { kind: 'malformed', message: REFUSALS.malformed } };
  }
  const purpose = DeepLinkPurpose.safeParse(payload.p);
  if (
    !purpose.success ||
    typeof payload.i !== 'string' ||
    typeof payload.u !== 'string' ||
    typeof payload.s !== 'string' ||
    typeof payload.e !== 'number'
  ) {
    return { ok: false, refusal: { kind: 'malformed', message: REFUSALS.malformed } };
  }
  const expiresAt = new Date(payload.e * 1000);
  if (expiresAt.getTime() <= (options.now ?? new Date()).getTime()) {
    return {
      ok: false,
      refusal: { kind: 'expired', message: REFUSALS.expired(expiresAt.toISOString()) },
    };
  }
  if (options.purpose && options.purpose !== purpose.data) {
    return {
      ok: false,
      refusal: { kind: 'purpose', message: REFUSALS.purpose(purpose.data) },
    };
  }
  return {
    ok: true,
    claims: {
      linkId: payload.i,
      purpose: purpose.data,
      patient: payload.u,
      subject: payload.s,
      expiresAt: expiresAt.toISOString(),
    },
  };
}
