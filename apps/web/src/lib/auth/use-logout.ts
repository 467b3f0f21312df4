import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { postLogout } from './post-logout.ts';
import { signOutLocally } from './session.ts';

/**
 * Signs out: ends the session on the server, forgets it here, drops every cached answer and goes
 * to / (which, signed out, leads to /login).
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await postLogout();
    } catch {
      // The local sign-out below still happens; the refresh cookie expires on its own.
    }
    signOutLocally();
    queryClient.clear();
    await navigate('/', { replace: true });
  }, [navigate, queryClient]);
}
