import { canAccess, type Privilege } from '@loopdesk/contracts/privileges.ts';
import { ADMIN_CLOSE_CODE, type SessionSource } from '@loopdesk/contracts/realtime.ts';
import type { Bus } from '../../platform/bus.ts';
import type { RealtimeHub } from './hub.ts';

/** Privilege needed to open each socket. */
export const SOCKET_PRIVILEGE: Readonly<Record<SessionSource, Privilege>> = {
  federated: 'jobs:federated:perform',
  exceptions: 'jobs:exception:perform',
  priority: 'jobs:federated:perform',
};

/** Why a socket closes when its user lost the role it needs. */
export const ROLE_REMOVED_REASON = 'Your roles changed: this work is no longer yours to do.';

/**
 * When an admin changes a user's roles (`users.roles.changed`, on every node), this node closes
 * the user's sockets that the new roles no longer allow; their jobs go back to the queue as on
 * any close. Sockets the user may still use stay open. Returns the unsubscribe.
 */
export function closeSocketsOnRoleChange(bus: Bus, hub: Pick<RealtimeHub, 'sockets'>): () => void {
  return bus.subscribe('users.roles.changed', ({ userId, roles }) => {
    for (const conn of hub.sockets()) {
      if (conn.userId === userId && !canAccess(roles, { anyOf: [SOCKET_PRIVILEGE[conn.source]] })) {
        conn.socket.close(ADMIN_CLOSE_CODE, ROLE_REMOVED_REASON);
      }
    }
  });
}
