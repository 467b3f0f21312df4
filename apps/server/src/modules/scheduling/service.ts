import {
  localDateTimeToUtc,
  type Appointment,
  type AppointmentsSummary,
  type Physician,
  type PutPhysicianBody,
  type ScheduleAppointment,
} from '@loopdesk/contracts/scheduling.ts';
import {
  EXCEPTION_ERRORS,
  RESTRICTED_EXCEPTIONS_PRIVILEGE,
} from '@loopdesk/contracts/exceptions.ts';
import { hasPrivilege, type Role } from '@loopdesk/contracts/privileges.ts';
import type { Database } from '../../platform/db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { createConversationsRepository } from '../conversations/repository.ts';
import type { Origin } from '../conversations/service.ts';
import { createSchedulingRepository, toAppointment, toPhysician } from './repository.ts';

/** Physicians and appointments (spec 3 §7 Scheduling). */
export function createSchedulingService(db: Database) {
  const repo = createSchedulingRepository(db);
  const conversations = createConversationsRepository(db);

  return {
    async physicians(): Promise<Physician[]> {
      return (await repo.activePhysicians()).map(toPhysician);
    },

    async putPhysician(
      id: string,
      body: PutPhysicianBody,
      apiKey: string,
      origin: Origin,
    ): Promise<Physician & { active: boolean }> {
      return db.transaction().execute(async (trx) => {
        const row = await repo.upsertPhysician({ id, ...body }, trx);
        await recordAudit(
          trx,
          {
            action: 'physician.put',
            outcome: 'success',
            resourceType: 'physician',
            resourceId: id,
            statusCode: 200,
            details: { apiKey, active: body.active },
          },
          origin,
        );
        return { ...toPhysician(row), active: row.active };
      });
    },

    /**
     * Stores an appointment. The physician must be a known one under the names given; the
     * patient is the conversation's, or whoever has the consumer email.
     */
    async schedule(
      body: ScheduleAppointment,
      user: { id: string; email: string; roles: readonly Role[] },
      origin: Origin,
    ): Promise<Appointment> {
      return db.transaction().execute(async (trx) => {
        const physician = await repo.findPhysician(body.staffId, trx);
        if (!physician || !physician.active) {
          throw badRequest(
            `No physician with the id '${body.staffId}': pick one of GET /internal/physicians.`,
            [{ path: 'body.staffId', message: 'is not a physician' }],
          );
        }
        if (
          physician.first_name !== body.staffFirstName ||
          physician.last_name !== body.staffLastName
        ) {
          throw badRequest(
            `staffFirstName and staffLastName must be those of the physician ${body.staffId} (${physician.first_name} ${physician.last_name}).`,
            [{ path: 'body.staffLastName', message: 'does not match the physician' }],
          );
        }
        let consumerId: string | null = null;
        if (body.conversationId !== undefined) {
          const conversation = await conversations.findConversation(body.conversationId, trx);
          if (!conversation) {
            throw notFound(
              `No conversation with the id '${body.conversationId}': check the conversation id, or give the consumer email instead.`,
            );
          }
          if (
            conversation.restricted &&
            !hasPrivilege(user.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE)
          ) {
            throw forbidden(EXCEPTION_ERRORS.restricted);
          }
          consumerId = conversation.consumer_id;
        }
        const row = await repo.insertAppointment(
          {
            type: body.type,
            from_date_time: body.fromDateTime,
            duration: body.duration,
            timezone: body.timezone,
            starts_at: localDateTimeToUtc(body.fromDateTime, body.timezone),
            conversation_id: body.conversationId ?? null,
            consumer_id: consumerId,
            consumer_email: body.consumerEmail ?? null,
            staff_id: physician.id,
            staff_first_name: physician.first_name,
            staff_last_name: physician.last_name,
            consumer_note: body.consumerNote,
            appointment_note: body.appointmentNote,
            created_by: user.id,
            created_by_email: user.email,
          },
          trx,
        );
        await recordAudit(
          trx,
          {
            action: 'appointment.schedule',
            outcome: 'success',
            actorId: user.id,
            actorEmail: user.email,
            resourceType: 'appointment',
            resourceId: row.id,
            statusCode: 201,
            details: { conversationId: row.conversation_id, staffId: row.staff_id },
          },
          origin,
        );
        return toAppointment(row);
      });
    },

    /**
     * Appointments, newest first (or upcoming, soonest first); those of restricted conversations
     * only with the privilege.
     */
    async summary(
      filter: { conversationId?: string | undefined; limit: number; upcoming?: boolean },
      reader: { id: string; email: string; roles: readonly Role[] },
      origin: Origin,
    ): Promise<AppointmentsSummary> {
      const { rows, total } = await repo.listAppointments({
        ...filter,
        withRestricted: hasPrivilege(reader.roles, RESTRICTED_EXCEPTIONS_PRIVILEGE),
      });
      // Appointments name patients: every read is in the audit trail.
      await recordAudit(
        db,
        {
          action: 'appointments.read',
          outcome: 'success',
          actorId: reader.id,
          actorEmail: reader.email,
          resourceType: 'appointment',
          resourceId: filter.conversationId ?? null,
          statusCode: 200,
          details: {
            upcoming: filter.upcoming === true,
            returned: rows.length,
            appointmentIds: rows.map((row) => row.id),
          },
        },
        origin,
      );
      return { items: rows.map(toAppointment), total };
    },
  };
}

export type SchedulingService = ReturnType<typeof createSchedulingService>;
