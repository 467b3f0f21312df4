import { useEffect, useSyncExternalStore } from 'react';
import { enableSound, onSoundAllowedChange, soundAllowed } from './audio-context.ts';

/** A click or key press anywhere on the page lets sound play: the context is resumed then. */
const GESTURES = ['pointerdown', 'keydown'] as const;

/**
 * Whether the page may play sound now (issue 20): false after a reload until the user clicks or
 * types on the page. While false, screens that alert by sound show an "Enable sound" control
 * (`enableSound` in its click). Any gesture on the page enables sound too.
 */
export function useSoundAllowed(): boolean {
  const allowed = useSyncExternalStore(onSoundAllowedChange, soundAllowed, () => false);
  useEffect(() => {
    if (allowed) {
      return undefined;
    }
    const onGesture = () => {
      void enableSound();
    };
    for (const gesture of GESTURES) {
      window.addEventListener(gesture, onGesture, { capture: true });
    }
    return () => {
      for (const gesture of GESTURES) {
        window.removeEventListener(gesture, onGesture, { capture: true });
      }
    };
  }, [allowed]);
  return allowed;
}
