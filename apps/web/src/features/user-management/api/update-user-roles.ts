import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '@loopdesk/contracts/privileges.ts';
import type { ManagedUser } from '@loopdesk/contracts/users.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { userKey } from './user-key.ts';

/** `PATCH /internal/users/{base64 of id}` with `{permissions}` (spec 1 §7, 3 §7). */
export function updateUserRoles(uid: string, roles: readonly Role[]): Promise<ManagedUser> {
  return callRoute('PATCH', '/internal/users/:userId', {
    params: { userId: userKey(uid) },
    body: { permissions: { roles: [...roles] } },
  });
}

/** Saves a user's roles, then reloads the users list and the user read back. */
export function useUpdateUserRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uid, roles }: { uid: string; roles: readonly Role[] }) =>
      updateUserRoles(uid, roles),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['users', 'list'] }),
        queryClient.invalidateQueries({ queryKey: ['users', 'one'] }),
      ]),
  });
}
