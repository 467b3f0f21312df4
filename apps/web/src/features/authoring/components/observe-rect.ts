import { observeElementRect, type Virtualizer } from '@tanstack/react-virtual';

/** What a scroller that has no size yet (not laid out: hidden, or a test's DOM) counts as. */
const UNMEASURED = { width: 1024, height: 768 };

/**
 * TanStack Virtual's element observer, except that a scroller measured at 0 px high draws a
 * screenful of rows rather than none: nothing of it is visible then, and its rows stay reachable.
 */
export function observeRect<T extends Element>(
  instance: Virtualizer<T, Element>,
  callback: (rect: { width: number; height: number }) => void,
) {
  return observeElementRect(instance, (rect) => callback(rect.height > 0 ? rect : UNMEASURED));
}
