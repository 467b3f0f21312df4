import { usePageTitle } from '../../../lib/page-title.ts';
import { DashboardScreen } from '../components/dashboard-screen.tsx';
import { DASHBOARD_TITLE } from '../utils/messages.ts';

/** `/jobs/async`: the asynchronous jobs dashboard (spec 3 §2). */
export function AsyncDashboardRoute() {
  usePageTitle(DASHBOARD_TITLE);
  return <DashboardScreen />;
}
