import type { Page } from '@playwright/test';

/**
 * A submit key pressed within this many milliseconds of a step appearing is ignored (issue 20
 * "no reword sent unread"); a person reading the step takes longer.
 */
export const STEP_GUARD_MS = 500;

/** Waits as a person who reads the step before pressing its submit key. */
export async function readTheStep(page: Page): Promise<void> {
  await page.waitForTimeout(STEP_GUARD_MS + 150);
}

/** What the browser has selected now (a text field's own selection included). */
export async function selectedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) {
      return active.value.slice(active.selectionStart ?? 0, active.selectionEnd ?? 0);
    }
    return window.getSelection()?.toString() ?? '';
  });
}

/** Describes the focused element (tag, role and accessible name hints) for focus assertions. */
export async function focusedDescription(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) {
      return 'body';
    }
    const name =
      active.getAttribute('aria-label') ??
      active.getAttribute('aria-labelledby') ??
      active.textContent?.trim().slice(0, 40) ??
      '';
    return `${active.tagName.toLowerCase()}:${name}`;
  });
}
