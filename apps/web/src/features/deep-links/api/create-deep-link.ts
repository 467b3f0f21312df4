import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { CreateDeepLinkBody, DeepLink } from '@loopdesk/contracts/deep-links.ts';
import type { AppointmentsSummary } from '@loopdesk/contracts/scheduling.ts';
import { callRoute } from '../../../lib/api-client.ts';

/** `POST /internal/deep-links`: a signed telehealth link (docs/deep-links.md). */
export function createDeepLink(body: CreateDeepLinkBody): Promise<DeepLink> {
  return callRoute('POST', '/internal/deep-links', { body });
}

export function useCreateDeepLink() {
  return useMutation({ mutationFn: createDeepLink });
}

/** `GET /internal/experiment/appointments/_summary`: the appointments a link can open. */
export function appointmentsQueryOptions() {
  return queryOptions({
    queryKey: ['deep-links', 'appointments'],
    queryFn: ({ signal }): Promise<AppointmentsSummary> =>
      callRoute('GET', '/internal/experiment/appointments/_summary', {
        query: { s: 100 },
        signal,
      }),
  });
}

export function useAppointments() {
  return useQuery(appointmentsQueryOptions());
}
