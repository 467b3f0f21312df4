import type { Selectable } from 'kysely';
import type { Appointment, Physician } from '@loopdesk/contracts/scheduling.ts';
import type { Database } from '../../platform/db/database.ts';
import type { AppointmentsTable, PhysiciansTable } from '../../platform/db/schema.ts';
import type { Executor } from '../conversations/repository.ts';

export type AppointmentRow = Selectable<AppointmentsTable>;
export type PhysicianRow = Selectable<PhysiciansTable>;

export function toPhysician(row: PhysicianRow): Physician {
  return { id: row.id, firstName: row.first_name, lastName: row.last_name };
}

export function toAppointment(row: AppointmentRow): Appointment {
  return {
    id: row.id,
    type: row.type,
    fromDateTime: row.from_date_time,
    duration: row.duration,
    timezone: row.timezone as Appointment['timezone'],
    startsAt: new Date(row.starts_at).toISOString(),
    conversationId: row.conversation_id,
    consumerId: row.consumer_id,
    consumerEmail: row.consumer_email,
    staffId: row.staff_id,
    staffFirstName: row.staff_first_name,
    staffLastName: row.staff_last_name,
    consumerNote: row.consumer_note,
    appointmentNote: row.appointment_note,
    status: 'SCHEDULED',
    createdOn: new Date(row.created_on).toISOString(),
    createdBy: row.created_by_email,
  };
}

/** SQL over physicians and appointments. */
export function createSchedulingRepository(db: Database) {
  return {
    activePhysicians(trx: Executor = db): Promise<PhysicianRow[]> {
      return trx
        .selectFrom('physicians')
        .selectAll()
        .where('active', '=', true)
        .orderBy('last_name')
        .orderBy('first_name')
        .execute();
    },

    findPhysician(id: string, trx: Executor = db): Promise<PhysicianRow | undefined> {
      return trx.selectFrom('physicians').selectAll().where('id', '=', id).executeTakeFirst();
    },

    upsertPhysician(
      physician: { id: string; firstName: string; lastName: string; active: boolean },
      trx: Executor = db,
    ): Promise<PhysicianRow> {
      const values = {
        first_name: physician.firstName,
        last_name: physician.lastName,
        active: physician.active,
      };
      return trx
        .insertInto('physicians')
        .values({ id: physician.id, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    insertAppointment(
      values: Omit<AppointmentRow, 'id' | 'created_on' | 'status'>,
      trx: Executor,
    ): Promise<AppointmentRow> {
      return trx.insertInto('appointments').values(values).returningAll().executeTakeFirstOrThrow();
    },

    async listAppointments(
      filter: {
        conversationId?: string | undefined;
        limit: number;
        withRestricted: boolean;
        /** Only those not started yet, soonest first (else newest first). */
        upcoming?: boolean;
      },
      trx: Executor = db,
    ): Promise<{ rows: AppointmentRow[]; total: number }> {
      let query = trx.selectFrom('appointments');
      if (filter.conversationId !== undefined) {
        query = query.where('conversation_id', '=', filter.conversationId);
      }
      if (filter.upcoming) {
        query = query.where('starts_at', '>=', new Date());
      }
      if (!filter.withRestricted) {
        query = query.where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('conversations as c')
                .select('c.id')
                .whereRef('c.id', '=', 'appointments.conversation_id')
                .where('c.restricted', '=', true),
            ),
          ),
        );
      }
      const [rows, count] = await Promise.all([
        (filter.upcoming
          ? query.selectAll().orderBy('starts_at').orderBy('id')
          : query.selectAll().orderBy('created_on', 'desc')
        )
          .limit(filter.limit)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}
