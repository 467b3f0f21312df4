import {
  RESTRICTED_EXCEPTIONS_PRIVILEGE,
  EXCEPTION_ERRORS,
} from '@loopdesk/contracts/exceptions.ts';
import type {
  CreateDeepLinkBody,
  DeepLink,
  DeepLinkClaims,
} from '@loopdesk/contracts/deep-links.ts';
import { hasPrivilege, type Role } from '@loopdesk/contracts/privileges.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import type { Origin } from '../conversations/service.ts';
import { signDeepLink, verifyDeepLink, type Refusal } from './signature.ts';

/** The HTTP status of each refusal: a broken token is a 400, a forged or spent one a 403. */
export const REFUSAL_STATUS: Record<Refusal['kind'], 400 | 403> = {
  malformed: 400,
  forged: 403,
  expired: 403,
  purpose: 403,
};

/** Telehealth deep links (docs/deep-links.md): made by staff, checked where they land. */
export function createDeepLinksService(db: Database, options: { key: Buffer; baseUrl: string }) {
  const conversations = createConversationsRepository(db);

  /** The patient of what the link opens, if this member of staff may link to it. */
  async function patientOf(
    body: CreateDeepLinkBody,
    staff: { roles: readonly Role[] },
  ): Promise<{ patient: string; subject: string }> {
    if (body.purpose === 'telehealth.appointment') {
      const id = body.appointmentId ?? '';
      // The appointment's patient, read where it is kept (modules/scheduling writes it).
      const appointment = await db
        .selectFrom('appointments')
        .select(['id', 'consumer_id', 'consumer_email', 'conversation_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!appointment) {
        throw notFound(
          `No appointment with the id '${id}': pick one of the scheduled appointments.`,
        );
      }
      const patient = appointment.consumer_id ?? appointment.consumer_email ?? '';
      return { patient, subject: appointment.id };
    }
    const id = body.conversationId ?? '';
    const conversation = await conversations.findConversation(id);
    if (!conversation) {
      throw notFound(`No conversation with the id '${id}': check the conversation id.`);
    }
    if (conversation.restricted && !hasPrivilege(staff.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE)) {
      throw forbidden(EXCEPTION_ERRORS.restricted);
    }
    return { patient: conversation.consumer_id, subject: conversation.id };
  }

  return {
    /** Signs a link for one purpose, one patient, one appointment or conversation, until expiry. */
    async create(
      body: CreateDeepLinkBody,
      staff: { id: string; email: string; roles: readonly Role[] },
      origin: Origin,
    ): Promise<DeepLink> {
      const { patient, subject } = await patientOf(body, staff);
      const { token, claims } = signDeepLink(options.key, {
        purpose: body.purpose,
        patient,
        subject,
        expiresAt: new Date(Date.now() + body.expiresInMinutes * 60_000),
      });
      await recordAudit(
        db,
        {
          action: 'deep-link.create',
          outcome: 'success',
          actorId: staff.id,
          actorEmail: staff.email,
          resourceType: body.purpose === 'telehealth.appointment' ? 'appointment' : 'conversation',
          resourceId: subject,
          statusCode: 201,
          details: { linkId: claims.linkId, patient, expiresAt: claims.expiresAt },
        },
        origin,
      );
      const url = `${options.baseUrl}?token=${encodeURIComponent(token)}`;
      return { ...claims, url, token };
    },

    /** Checks a link; a refusal is audited and thrown with what to do. */
    async verify(
      token: string,
      purpose: DeepLinkClaims['purpose'] | undefined,
      who: string,
      origin: Origin,
    ): Promise<DeepLinkClaims> {
      const result = verifyDeepLink(options.key, token, purpose ? { purpose } : {});
      await recordAudit(
        db,
        {
          action: 'deep-link.verify',
          outcome: result.ok ? 'success' : 'denied',
          resourceType: 'deep_link',
          resourceId: result.ok ? result.claims.linkId : null,
          statusCode: result.ok ? 200 : REFUSAL_STATUS[result.refusal.kind],
          details: result.ok
            ? { by: who, purpose: result.claims.purpose, subject: result.claims.subject }
            : { by: who, refusal: result.refusal.kind },
        },
        origin,
      );
      if (!result.ok) {
        throw new AppError(REFUSAL_STATUS[result.refusal.kind], result.refusal.message);
      }
      return result.claims;
    },
  };
}

export type DeepLinksService = ReturnType<typeof createDeepLinksService>;
