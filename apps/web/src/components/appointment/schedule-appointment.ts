import { useMutation } from '@tanstack/react-query';
import { Appointment, type ScheduleAppointmentBody } from '@loopdesk/contracts/scheduling.ts';
import { callRoute } from '../../lib/api-client.ts';

/** `POST /internal/appointments/_schedule` with the appointment (spec 3 §3, §7). */
export function scheduleAppointment(body: ScheduleAppointmentBody): Promise<Appointment> {
  return callRoute('POST', '/internal/appointments/_schedule', { body, schema: Appointment });
}

export function useScheduleAppointment() {
  return useMutation({ mutationFn: scheduleAppointment });
}
