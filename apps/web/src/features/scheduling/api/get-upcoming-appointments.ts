import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppointmentsSummary } from '@loopdesk/contracts/scheduling.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** Appointments the screen lists at most. */
export const UPCOMING_LIMIT = 50;

/**
 * `GET /internal/experiment/appointments/_summary?upcoming=true` (spec 3 §7 Scheduling): the
 * appointments that have not started yet, soonest first.
 */
export function getUpcomingAppointments(signal?: AbortSignal): Promise<AppointmentsSummary> {
  return callRoute('GET', '/internal/experiment/appointments/_summary', {
    query: { upcoming: 'true', s: UPCOMING_LIMIT },
    ...(signal ? { signal } : {}),
  });
}

export function upcomingAppointmentsQueryOptions() {
  return queryOptions({
    queryKey: ['appointments', 'upcoming'],
    queryFn: ({ signal }) => getUpcomingAppointments(signal),
    // Others schedule too (the exception desk): read again every minute.
    refetchInterval: 60_000,
  });
}

export function useUpcomingAppointments() {
  return useQuery(upcomingAppointmentsQueryOptions());
}
