import { LOGIN_PATH } from '@loopdesk/contracts/portal-routes.ts';
import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { saveRedirectTarget } from '../../lib/auth/redirect-target.ts';

/** Signed out on a protected route: remember where the user was going, then go to /login. */
export function RedirectToLogin() {
  const { pathname, search } = useLocation();
  useEffect(() => saveRedirectTarget(pathname, search), [pathname, search]);
  return <Navigate to={LOGIN_PATH} replace />;
}
