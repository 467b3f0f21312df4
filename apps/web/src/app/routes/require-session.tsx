import { Outlet } from 'react-router';
import { FullScreenSpinner } from '../../components/full-screen-spinner.tsx';
import { useSession } from '../../lib/auth/session-store.ts';
import { useCurrentUser } from '../../lib/auth/use-current-user.ts';
import { NoRolesPage } from './no-roles-page.tsx';
import { RedirectToLogin } from './redirect-to-login.tsx';

/** Every route but /login: a session is required, and nothing shows while the roles are empty. */
export function RequireSession() {
  const session = useSession();
  const user = useCurrentUser();
  if (session.status === 'loading') {
    return <FullScreenSpinner label="Loading" />;
  }
  if (!user) {
    return <RedirectToLogin />;
  }
  if (user.permissions.roles.length === 0) {
    return <NoRolesPage user={user} />;
  }
  return <Outlet />;
}
