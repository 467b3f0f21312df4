import { hasPrivilege } from '@loopdesk/contracts/privileges.ts';
import { useCurrentUser } from '../../../lib/auth/use-current-user.ts';
import { DashboardFrame } from '../components/dashboard-frame.tsx';
import { HomePage } from '../components/home-page.tsx';

/**
 * `/`: the analytics dashboard for holders of analytics:dashboard:view (issue 16), a home page
 * listing the user's screens for everyone else.
 */
export function DashboardRoute() {
  const user = useCurrentUser();
  if (!user) {
    return null;
  }
  if (hasPrivilege(user.permissions.roles, 'analytics:dashboard:view')) {
    return <DashboardFrame />;
  }
  return <HomePage user={user} />;
}
