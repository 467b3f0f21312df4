import type { Locator, Page, TestInfo } from '@playwright/test';
import path from 'node:path';

/** The little of the DOM this file needs (the root tsconfig has no DOM library). */
interface AnimatedWindow {
  readonly document: { getAnimations(): readonly unknown[] };
}

/** How tall the viewport must be for the whole content of a scrolling region to show. */
async function fullHeightOf(region: Locator): Promise<number> {
  const box = await region.boundingBox();
  const scrollHeight = await region.evaluate(
    (element: { scrollHeight: number }) => element.scrollHeight,
  );
  return Math.ceil((box?.y ?? 0) + scrollHeight);
}

/**
 * Saves a full-page screenshot as test-results/<name>.png for people to look at, and attaches it
 * to the test's report. `showAllOf` is a scrolling region (such as the drawer) whose whole content
 * should be in the picture: the viewport grows for the shot, since a full-page screenshot only
 * covers the document's own scroll. Returns the file's path.
 */
export async function saveScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  showAllOf?: Locator,
): Promise<string> {
  const file = path.join(testInfo.project.outputDir, `${name}.png`);
  // Measure and shoot only once transitions (such as a group of the drawer opening) are over.
  // (A function, not a string: the portal's CSP forbids eval.)
  await page.waitForFunction(
    () => (globalThis as unknown as AnimatedWindow).document.getAnimations().length === 0,
  );
  const viewport = page.viewportSize();
  const needed = showAllOf ? await fullHeightOf(showAllOf) : 0;
  const grow = viewport !== null && needed > viewport.height;
  if (grow) {
    await page.setViewportSize({ width: viewport.width, height: needed });
  }
  if (showAllOf) {
    await showAllOf.evaluate((element: { scrollTop: number }) => {
      element.scrollTop = 0;
    });
  }
  if (viewport !== null) {
    // No hover highlight in the picture: park the pointer in the bottom-right corner.
    await page.mouse.move(viewport.width - 1, Math.max(viewport.height, needed) - 1);
  }
  try {
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  } finally {
    if (grow) {
      await page.setViewportSize(viewport);
    }
  }
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  return file;
}
