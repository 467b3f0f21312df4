import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { FullScreenSpinner } from '../../../components/full-screen-spinner.tsx';
import { useToast } from '../../../components/toast-context.ts';
import { clearRedirectTarget, readRedirectTarget } from '../../../lib/auth/redirect-target.ts';
import { useSession } from '../../../lib/auth/session-store.ts';
import { usePortalConfig } from '../../../lib/portal-config.ts';
import { LoginScreen } from '../components/login-screen.tsx';
import { useSignInPopup } from '../hooks/use-sign-in-popup.ts';

/** Signed in already: go to the saved target (or /), then forget it. */
function RedirectAfterSignIn() {
  const [target] = useState(readRedirectTarget);
  useEffect(() => clearRedirectTarget(), []);
  return <Navigate to={target} replace />;
}

/** /login (spec 1 §2 Login screen). */
export function LoginRoute() {
  const session = useSession();
  const toast = useToast();
  const { signIn, inProgress } = useSignInPopup(toast.error);
  const config = usePortalConfig();

  if (session.status === 'loading') {
    return <FullScreenSpinner label="Loading" />;
  }
  if (session.status === 'signed-in') {
    return <RedirectAfterSignIn />;
  }
  return (
    <>
      <LoginScreen termsUrl={config.data?.termsUrl ?? ''} onSignIn={signIn} busy={inProgress} />
      {inProgress ? <FullScreenSpinner label="Signing in" /> : null}
    </>
  );
}
