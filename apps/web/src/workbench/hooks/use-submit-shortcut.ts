import { useEffect, useRef, type RefObject } from 'react';
import { typingIn } from '../utils/typing-in.ts';

/**
 * Ctrl+Enter (⌘+Enter) runs the panel's submit from anywhere on the screen (issue 4
 * "keyboard-first"; the '?' overlay lists it): also from the panel's own text fields, but not from
 * a field outside the panel (the exception desk's manual reply) nor inside a dialog. A handler
 * nearer the key that already took it (`preventDefault`) wins.
 */
export function useSubmitShortcut(action: () => void, panel: RefObject<HTMLElement | null>): void {
  const actionRef = useRef(action);
  useEffect(() => {
    actionRef.current = action;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.key !== 'Enter' || event.defaultPrevented) {
        return;
      }
      const target = event.target;
      if (target instanceof Element && target.closest('[role="dialog"]')) {
        return;
      }
      if (typingIn(target) && !(target instanceof Node && panel.current?.contains(target))) {
        return;
      }
      event.preventDefault();
      actionRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [panel]);
}
