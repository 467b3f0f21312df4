import { useSyncExternalStore } from 'react';
import type { Me } from '@loopdesk/contracts/users.ts';

/** What the portal knows about the sign-in session. */
export type SessionState =
  | { readonly status: 'loading' }
  | { readonly status: 'signed-out' }
  | {
      readonly status: 'signed-in';
      readonly accessToken: string;
      /** Epoch ms at which the access token expires. */
      readonly expiresAt: number;
      /** Epoch ms of the refresh that produced this token. */
      readonly refreshedAt: number;
      readonly user: Me;
    };

let state: SessionState = { status: 'loading' };
const listeners = new Set<() => void>();

/** The current session state (outside React). */
export function getSession(): SessionState {
  return state;
}

/** Replaces the session state and tells every subscriber. */
export function setSession(next: SessionState): void {
  state = next;
  for (const listener of listeners) {
    listener();
  }
}

/** Subscribes to session changes; returns the unsubscribe function. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The access token to send as a bearer, if signed in. */
export function getAccessToken(): string | undefined {
  return state.status === 'signed-in' ? state.accessToken : undefined;
}

/** The session state, re-rendering when it changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}
