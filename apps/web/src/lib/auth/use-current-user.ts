import type { Me } from '@loopdesk/contracts/users.ts';
import { useMe } from './get-me.ts';
import { useSession } from './session-store.ts';

/**
 * The signed-in user, or null. Every refresh answers with the user, and roles are fetched again
 * after sign-in (spec 1 §6); whichever answer is newer wins.
 */
export function useCurrentUser(): Me | null {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const me = useMe(signedIn);
  if (!signedIn) {
    return null;
  }
  if (me.data && me.dataUpdatedAt >= session.refreshedAt && me.data.id === session.user.id) {
    return me.data;
  }
  return session.user;
}
