import { z } from 'zod';
import { ExternalId } from './conversations.ts';

/** Appointment scheduling (spec 3 §3 Appointment and Physician, §7 Scheduling, §8, §9). */

/** Appointment types with their labels (spec 3 §9: GENERAL, HPI (Post HPI), ONBOARDING). */
export const APPOINTMENT_TYPES = ['GENERAL', 'HPI', 'ONBOARDING'] as const;
export const AppointmentType = z.enum(APPOINTMENT_TYPES, {
  message: `must be one of ${APPOINTMENT_TYPES.join(', ')}`,
});
export type AppointmentType = z.infer<typeof AppointmentType>;
export const APPOINTMENT_TYPE_LABELS: Readonly<Record<AppointmentType, string>> = {
  GENERAL: 'General',
  HPI: 'Post HPI',
  ONBOARDING: 'Onboarding',
};

/** The two timezones of spec 3 §9. */
export const APPOINTMENT_TIMEZONES = ['America/Los_Angeles', 'Pacific/Auckland'] as const;
export const AppointmentTimezone = z.enum(APPOINTMENT_TIMEZONES, {
  message: `must be one of ${APPOINTMENT_TIMEZONES.join(', ')}`,
});
export type AppointmentTimezone = z.infer<typeof AppointmentTimezone>;

/** Defaults of the appointment form (spec 3 §9). */
export const APPOINTMENT_DEFAULTS = {
  type: 'GENERAL',
  duration: 15,
  timezone: 'America/Los_Angeles',
} as const satisfies { type: AppointmentType; duration: number; timezone: AppointmentTimezone };

/** Longest appointment the form accepts, in minutes. */
export const APPOINTMENT_MAX_DURATION = 480;

/** yyyy-MM-dd'T'HH:mm, the date format of spec 3 §9, in the appointment's timezone. */
export const LOCAL_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Whether `yyyy-MM-dd'T'HH:mm` names a real calendar minute. */
export function isLocalDateTime(value: string): boolean {
  const match = LOCAL_DATE_TIME_PATTERN.exec(value);
  if (!match) {
    return false;
  }
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    h < 24 &&
    mi < 60
  );
}

/** Offset of a timezone from UTC at an instant, in minutes. */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - instant) / 60_000);
}

/** The UTC instant of a local `yyyy-MM-dd'T'HH:mm` in a timezone (DST-aware). */
export function localDateTimeToUtc(value: string, timeZone: string): Date {
  const match = LOCAL_DATE_TIME_PATTERN.exec(value);
  if (!match) {
    throw new Error(`${value} is not yyyy-MM-dd'T'HH:mm`);
  }
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // Two passes settle the offset on either side of a daylight-saving change.
  let instant = wall - offsetMinutes(wall, timeZone) * 60_000;
  instant = wall - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant);
}

/** Whether a local `yyyy-MM-dd'T'HH:mm` in a timezone is later than `now`. */
export function isFutureLocalDateTime(value: string, timeZone: string, now = Date.now()): boolean {
  return isLocalDateTime(value) && localDateTimeToUtc(value, timeZone).getTime() > now;
}

/** Why an appointment time in the past is refused. */
export const APPOINTMENT_IN_PAST_MESSAGE =
  'must be in the future (in the chosen timezone): pick a later date and time';

/** Body of `POST /internal/appointments/_schedule` (spec 3 §3 Appointment). */
export const ScheduleAppointmentBody = z
  .strictObject({
    type: AppointmentType.default(APPOINTMENT_DEFAULTS.type),
    fromDateTime: z
      .string({ message: "is required: yyyy-MM-dd'T'HH:mm" })
      .refine(
        isLocalDateTime,
        "must be a date and time as yyyy-MM-dd'T'HH:mm, e.g. 2026-03-01T09:30",
      ),
    duration: z
      .number({ message: 'must be a number of minutes' })
      .int({ message: 'must be a whole number of minutes' })
      .min(1, { message: 'must be at least 1 minute' })
      .max(APPOINTMENT_MAX_DURATION, {
        message: `must be at most ${APPOINTMENT_MAX_DURATION} minutes`,
      })
      .default(APPOINTMENT_DEFAULTS.duration),
    timezone: AppointmentTimezone.default(APPOINTMENT_DEFAULTS.timezone),
    conversationId: ExternalId.optional(),
    consumerEmail: z.email({ message: 'must be an email address' }).optional(),
    staffId: ExternalId.describe('the physician’s id (GET /internal/physicians)'),
    staffFirstName: z.string().trim().min(1, 'must not be empty').max(200),
    staffLastName: z.string().trim().min(1, 'must not be empty').max(200),
    consumerNote: z
      .string({ message: 'is required' })
      .trim()
      .min(1, 'is required: write a note for the patient')
      .max(5000),
    appointmentNote: z
      .string({ message: 'is required' })
      .trim()
      .min(1, 'is required: write a note for the physician')
      .max(5000),
  })
  .refine((body) => body.conversationId !== undefined || body.consumerEmail !== undefined, {
    message: 'give the conversation id or the consumer email, so the patient is known',
    path: ['consumerEmail'],
  })
  // An appointment is booked ahead: a time already gone is a slip of the date picker.
  .refine((body) => isFutureLocalDateTime(body.fromDateTime, body.timezone), {
    message: APPOINTMENT_IN_PAST_MESSAGE,
    path: ['fromDateTime'],
  });
export type ScheduleAppointmentBody = z.input<typeof ScheduleAppointmentBody>;
export type ScheduleAppointment = z.output<typeof ScheduleAppointmentBody>;

/** A stored appointment. */
export const Appointment = z.object({
  id: z.uuid(),
  type: AppointmentType,
  fromDateTime: z.string(),
  duration: z.number().int(),
  timezone: AppointmentTimezone,
  startsAt: z.string().describe('the start as an ISO instant (UTC)'),
  conversationId: z.string().nullable(),
  consumerId: z.string().nullable(),
  consumerEmail: z.string().nullable(),
  staffId: z.string(),
  staffFirstName: z.string(),
  staffLastName: z.string(),
  consumerNote: z.string(),
  appointmentNote: z.string(),
  status: z.literal('SCHEDULED'),
  createdOn: z.string(),
  createdBy: z.string().describe('email of the reviewer who scheduled it'),
});
export type Appointment = z.infer<typeof Appointment>;

/** Physician (spec 3 §3). */
export const Physician = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export type Physician = z.infer<typeof Physician>;

export const PhysicianIdParams = z.object({ id: ExternalId });
export type PhysicianIdParams = z.infer<typeof PhysicianIdParams>;

/** Body of `PUT /api/v1/physicians/{id}`: the physician directory the desk schedules with. */
export const PutPhysicianBody = z.strictObject({
  firstName: z.string().trim().min(1, 'must not be empty').max(200),
  lastName: z.string().trim().min(1, 'must not be empty').max(200),
  active: z.boolean().default(true),
});
export type PutPhysicianBody = z.infer<typeof PutPhysicianBody>;

export const PhysiciansResponse = z.object({ items: z.array(Physician) });
export type PhysiciansResponse = z.infer<typeof PhysiciansResponse>;

/** A physician of the directory as the assistant keeps it (`PUT /api/v1/physicians/{id}`). */
export const PhysicianEntry = Physician.extend({ active: z.boolean() });

export const AppointmentsSummaryQuery = z.object({
  conversationId: ExternalId.optional(),
  s: z.coerce
    .number({ message: 'must be a whole number from 1 to 200' })
    .int()
    .min(1)
    .max(200)
    .default(50),
  upcoming: z
    .enum(['true', 'false'], { message: "must be 'true' or 'false'" })
    .optional()
    .transform((value) => value === 'true')
    .describe('true: only appointments that have not started yet, soonest first'),
});
export type AppointmentsSummaryQuery = z.infer<typeof AppointmentsSummaryQuery>;

/** `GET /internal/experiment/appointments/_summary`: newest first, or upcoming soonest first. */
export const AppointmentsSummary = z.object({
  items: z.array(Appointment),
  total: z.number().int(),
});
export type AppointmentsSummary = z.infer<typeof AppointmentsSummary>;

/** Messages of the schedule call (spec 3 §8 Schedule). */
export const SCHEDULE_SUCCESS_MESSAGE = 'Success the appointment has been scheduled.';
export const SCHEDULE_ERROR_MESSAGE =
  'Error trying to save. Try again. If the problem persists contact support about a server error.';
