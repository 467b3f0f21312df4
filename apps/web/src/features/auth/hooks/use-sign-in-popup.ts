import { LOGIN_POLL_MS } from '@loopdesk/contracts/portal-routes.ts';
import {
  AUTH_CHANNEL,
  SIGN_IN_FAILED_MESSAGE,
  SIGNED_IN_MESSAGE,
} from '@loopdesk/contracts/users.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { HttpError, errorMessage } from '../../../lib/http-error.ts';
import { refreshSession } from '../../../lib/auth/session.ts';

export const LOGIN_POPUP_URL = '/auth/login';
export const LOGIN_POPUP_NAME = 'loopdesk-login';
export const LOGIN_POPUP_FEATURES = 'width=520,height=680';

export const POPUP_BLOCKED_MESSAGE =
  'The sign-in window could not be opened. Allow pop-ups for this site and try again.';

type PopupOutcome =
  { kind: 'signed-in' } | { kind: 'failed'; message: string } | { kind: 'closed' };

function outcomeOf(data: unknown): PopupOutcome | null {
  if (typeof data !== 'object' || data === null) {
    return null;
  }
  const { type, message } = data as { type?: unknown; message?: unknown };
  if (type === SIGNED_IN_MESSAGE) {
    return { kind: 'signed-in' };
  }
  if (type === SIGN_IN_FAILED_MESSAGE) {
    return {
      kind: 'failed',
      message: typeof message === 'string' && message ? message : 'Sign-in was refused.',
    };
  }
  return null;
}

/**
 * Sign-in through the server's OIDC popup. While the popup is open the state is checked every
 * LOGIN_POLL_MS: a message from the popup, or the popup closing, ends the attempt.
 */
export function useSignInPopup(onError: (message: string) => void) {
  const [inProgress, setInProgress] = useState(false);
  const stopRef = useRef<(() => void) | null>(null);
  const onErrorRef = useRef(onError);
  useEffect(() => {
    onErrorRef.current = onError;
  }, [onError]);

  // Leaving the screen mid-attempt stops polling and listening.
  useEffect(() => () => stopRef.current?.(), []);

  const finish = useCallback(async (outcome: PopupOutcome) => {
    switch (outcome.kind) {
      case 'signed-in':
        try {
          await refreshSession();
        } catch (error) {
          onErrorRef.current(errorMessage(error));
        }
        break;
      case 'failed':
        onErrorRef.current(outcome.message);
        break;
      case 'closed':
        // Closed without a word: the popup may still have set the cookie, so ask once; no
        // session simply means the user gave up.
        try {
          await refreshSession();
        } catch (error) {
          if (!(error instanceof HttpError && error.status === 401)) {
            onErrorRef.current(errorMessage(error));
          }
        }
        break;
    }
    setInProgress(false);
  }, []);

  const signIn = useCallback(() => {
    stopRef.current?.();
    const popup = window.open(LOGIN_POPUP_URL, LOGIN_POPUP_NAME, LOGIN_POPUP_FEATURES);
    if (!popup) {
      onErrorRef.current(POPUP_BLOCKED_MESSAGE);
      return;
    }
    popup.focus();
    setInProgress(true);

    let received: PopupOutcome | null = null;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) {
        return;
      }
      received = outcomeOf(event.data) ?? received;
    };
    // A popup whose opener link was cut (cross-origin provider pages) still reaches us here.
    const channel =
      typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(AUTH_CHANNEL);
    if (channel) {
      channel.onmessage = (event: MessageEvent) => {
        received = outcomeOf(event.data) ?? received;
      };
    }
    const stop = () => {
      window.clearInterval(timer);
      window.removeEventListener('message', onMessage);
      channel?.close();
      stopRef.current = null;
    };
    const timer = window.setInterval(() => {
      const outcome: PopupOutcome | null = received ?? (popup.closed ? { kind: 'closed' } : null);
      if (outcome) {
        stop();
        void finish(outcome);
      }
    }, LOGIN_POLL_MS);
    window.addEventListener('message', onMessage);
    stopRef.current = stop;
  }, [finish]);

  return { signIn, inProgress };
}
