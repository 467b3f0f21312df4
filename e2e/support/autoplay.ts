import type { Page } from '@playwright/test';

/**
 * Gives the page the autoplay policy of desktop Chrome, Edge and Safari for Web Audio, which
 * headless Chromium does not apply: an audio context stays 'suspended' until the document has
 * been clicked or typed in (user activation), and `resume()` is refused before that. A reload
 * makes a new document, which has not been clicked yet.
 */
export async function blockSoundUntilClick(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Real = window.AudioContext;
    // Headless Chromium reports every document as activated: count the user's own clicks and keys.
    let clicked = false;
    for (const gesture of ['pointerdown', 'keydown']) {
      window.addEventListener(
        gesture,
        (event) => {
          clicked ||= event.isTrusted;
        },
        { capture: true },
      );
    }
    const activated = () => clicked;
    class BlockedUntilClick extends Real {
      #allowed = activated();
      override get state(): AudioContextState {
        return this.#allowed ? super.state : 'suspended';
      }
      override async resume(): Promise<void> {
        if (!activated()) {
          throw new DOMException('The AudioContext was not allowed to start.', 'NotAllowedError');
        }
        await super.resume();
        this.#allowed = true;
        this.dispatchEvent(new Event('statechange'));
      }
    }
    window.AudioContext = BlockedUntilClick;
  });
}
