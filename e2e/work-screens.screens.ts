import { test, type Page } from '@playwright/test';
import path from 'node:path';
import { annotate, type DemoAssistant } from './support/federated.ts';
import { signInAs } from './support/sign-in.ts';
import {
  closeExceptionConversation,
  closeFederatedJob,
  openAsyncTask,
  openExceptionConversation,
  openFederatedJob,
} from './support/work-screens.ts';

/**
 * Screenshots of the three work screens at the two window sizes people use them at, written to
 * docs/screens/<screen>-<width>x<height>.png. Not part of the test run: playwright.screens.config.ts
 * picks *.screens.ts only. Renew with `npx playwright test -c playwright.screens.config.ts`
 * (docs/screens/README.md).
 */

const SCREENS_DIR = path.resolve(import.meta.dirname, '..', 'docs', 'screens');
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** Shoots the window as it is, at each size, once the screen has settled. */
async function shoot(page: Page, screen: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // Re-layout, then wait until finite transitions are over (a spinner's never are).
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((animation) => animation.effect?.getComputedTiming().endTime === Infinity),
    );
    // No hover highlight in the picture: park the pointer in the bottom-right corner.
    await page.mouse.move(size.width - 1, size.height - 1);
    await page.screenshot({
      path: path.join(SCREENS_DIR, `${screen}-${size.width}x${size.height}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  }
}

test('federated workbench with a job', async ({ page, request, baseURL }) => {
  let demo: DemoAssistant | undefined;
  try {
    await signInAs(page, 'annotator@loopdesk.test');
    demo = await openFederatedJob(page, baseURL ?? '');
    // One highlight made, as a technician sees the job half-way through.
    await annotate(page, 'pounding headache', 'chief complaint');
    await shoot(page, 'federated-workbench');
  } finally {
    await closeFederatedJob(request, demo);
  }
});

test('exception desk with a conversation', async ({ page, request }) => {
  await signInAs(page, 'medical@loopdesk.test');
  await openExceptionConversation(page, request);
  await shoot(page, 'exception-desk');
  await closeExceptionConversation(page);
});

test('async task screen', async ({ page }) => {
  await signInAs(page, 'annotator@loopdesk.test');
  await openAsyncTask(page);
  await page.waitForLoadState('networkidle');
  await shoot(page, 'async-task');
});
