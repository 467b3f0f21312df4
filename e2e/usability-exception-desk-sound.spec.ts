import { expect, test } from '@playwright/test';
import { blockSoundUntilClick } from './support/autoplay.ts';
import { openDesk } from './support/exception-desk.ts';

/**
 * Issue 20, exception desk point 16: after a reload the browser blocks the alert sound until the
 * user clicks on the page. Headless Chromium lets any page play sound, so the page gets the
 * desktop browsers' autoplay policy (support/autoplay.ts).
 */
test.beforeEach(async ({ page }) => {
  await blockSoundUntilClick(page);
});

test('16: after a reload an "Enable sound" control shows until sound is allowed', async ({
  page,
}) => {
  await openDesk(page);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.reload();
  const enable = page.getByRole('button', { name: 'Enable sound' });
  await expect(enable).toBeVisible();
  await enable.click();
  await expect(enable).toBeHidden();
  await expect(page.getByText('Sound is on.')).toBeVisible();
});
