import { MENU_HOTKEYS } from '@loopdesk/workbench/menu.ts';
import { useEffect, useRef } from 'react';
import { typingIn } from '../utils/typing-in.ts';

/**
 * Digits 1-9 pick the options of a screen, as they pick the hotkey menu's entries (issue 20 "one
 * keyboard model"): the n-th digit calls `choose(n - 1)` when there is an n-th option. Not from a
 * text field, nor inside a dialog, nor with Ctrl, Alt or ⌘; 0 and backtick stay the colour keys.
 */
export function useDigitKeys(count: number, choose: (index: number) => void, enabled = true): void {
  const chooseRef = useRef(choose);
  useEffect(() => {
    chooseRef.current = choose;
  });
  useEffect(() => {
    if (!enabled) {
      return undefined;
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) {
        return;
      }
      const index = (MENU_HOTKEYS as readonly string[]).indexOf(event.key);
      if (index < 0 || index >= count || typingIn(event.target)) {
        return;
      }
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) {
        return;
      }
      event.preventDefault();
      chooseRef.current(index);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [count, enabled]);
}
