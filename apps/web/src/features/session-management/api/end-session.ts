import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionActionResult } from '@loopdesk/contracts/realtime.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { sessionSummaryQueryOptions } from './get-session-summary.ts';

/** Close ends the technician's socket; Force Remove also forgets the session (spec 3 §2). */
export type SessionAction = 'close' | 'remove';

/** The `{base64 of user id}` of the user routes (spec 1 §7). */
export function userKey(technicianId: string): string {
  return btoa(technicianId);
}

/**
 * `GET /internal/users/{base64 id}/sessions/_close` or `/_remove`: acts on whichever node holds
 * the technician's socket.
 */
export function endSession(
  technicianId: string,
  action: SessionAction,
): Promise<SessionActionResult> {
  const params = { userId: userKey(technicianId) };
  return action === 'close'
    ? callRoute('GET', '/internal/users/:userId/sessions/_close', { params })
    : callRoute('GET', '/internal/users/:userId/sessions/_remove', { params });
}

/** Spec 3 §4, §9: "Session close and remove refresh the list after 10 seconds." */
export const REFRESH_AFTER_END_MS = 10_000;

/**
 * Closes or removes a session, then reloads the table after 10 s (the change takes up to 5 s to
 * reach every node, spec 3 §8).
 */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ technicianId, action }: { technicianId: string; action: SessionAction }) =>
      endSession(technicianId, action),
    onSettled: () => {
      setTimeout(() => {
        void queryClient.invalidateQueries(sessionSummaryQueryOptions());
      }, REFRESH_AFTER_END_MS);
    },
  });
}
