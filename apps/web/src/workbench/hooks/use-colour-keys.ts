import { isColourKey } from '@loopdesk/workbench/colours.ts';
import { useEffect } from 'react';
import { applyColourKey } from '../utils/highlight-view.ts';
import { typingIn } from '../utils/typing-in.ts';

/**
 * The colour keys (spec 1 §9 "0 and backtick for colour") on a job screen: 0 colours highlights
 * by category, backtick hides or shows their labels. They work with the hotkey menu open (it
 * leaves them alone) but not while typing in a field or inside a dialog, nor with Ctrl, Alt or ⌘.
 */
export function useColourKeys(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.ctrlKey ||
        event.altKey ||
        event.metaKey ||
        event.defaultPrevented ||
        !isColourKey(event.key) ||
        typingIn(event.target)
      ) {
        return;
      }
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) {
        return;
      }
      if (applyColourKey(event.key)) {
        event.preventDefault();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
