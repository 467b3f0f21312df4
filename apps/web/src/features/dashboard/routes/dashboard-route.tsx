import { hasPrivilege } from '@loopdesk/contracts/privileges.ts';
import { NotAvailablePage } from '../../../components/not-available-page.tsx';
import { useCurrentUser } from '../../../lib/auth/use-current-user.ts';
import { HomePage } from '../components/home-page.tsx';

/**
 * `/`: the analytics dashboard for holders of analytics:dashboard:view (a later issue), a home page
 * listing the user's screens for everyone else.
 */
export function DashboardRoute() {
  const user = useCurrentUser();
  if (!user) {
    return null;
  }
  if (hasPrivilege(user.permissions.roles, 'analytics:dashboard:view')) {
    return <NotAvailablePage title="Dashboard" />;
  }
  return <HomePage user={user} />;
}
