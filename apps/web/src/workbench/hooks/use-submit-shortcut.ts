import { useEffect, useRef, type RefObject } from 'react';
import { typingIn } from '../utils/typing-in.ts';
import { useStepGuard } from './use-step-guard.ts';

/**
 * Ctrl+Enter (⌘+Enter) runs the panel's submit from anywhere on the screen (issue 4
 * "keyboard-first"; the '?' overlay lists it): also from the panel's own text fields, but not from
 * a field outside the panel (the exception desk's manual reply) nor inside a dialog. A handler
 * nearer the key that already took it (`preventDefault`) wins. A key repeat, or a press within
 * 500 ms of the panel or its `step` appearing, is taken and ignored (issue 20: nothing is sent
 * unread).
 */
export function useSubmitShortcut(
  action: () => void,
  panel: RefObject<HTMLElement | null>,
  step: unknown = null,
): void {
  const actionRef = useRef(action);
  const accepts = useStepGuard(step);
  const acceptsRef = useRef(accepts);
  useEffect(() => {
    actionRef.current = action;
    acceptsRef.current = accepts;
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
      if (acceptsRef.current(event)) {
        actionRef.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [panel]);
}
