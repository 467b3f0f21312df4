import { expect, test } from '@playwright/test';
import {
  expandAllGroups,
  expectedDrawerEntries,
  navigation,
  visibleDrawerEntries,
} from './support/drawer.ts';
import { DEMO_ACCOUNTS } from './support/demo-accounts.ts';
import { saveScreenshot } from './support/screenshot.ts';
import { signInAs } from './support/sign-in.ts';

test('the login screen offers GSuite sign-in and the terms', async ({ page }) => {
  await page.goto('/login');

  await expect(page.getByRole('heading', { name: 'Login to your account' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login with GSuite' })).toBeEnabled();
  await expect(page.getByText('Terms and conditions', { exact: true })).toBeVisible();
});

test.describe('signing in through the popup', () => {
  for (const account of DEMO_ACCOUNTS) {
    const who = account.email.split('@')[0] ?? account.email;

    test(`${who} (${account.roles.join(', ')}) sees exactly the drawer links of their privileges`, async ({
      page,
    }, testInfo) => {
      await signInAs(page, account.email);
      const expected = expectedDrawerEntries(account.roles);

      await expandAllGroups(page);

      await expect.poll(() => visibleDrawerEntries(page)).toEqual(expected);
      // The table agrees with the spec, written out by hand for each account.
      expect(expected).toEqual(account.drawer);

      if (account.email === 'lead@loopdesk.test') {
        await saveScreenshot(page, testInfo, 'shell-lead', navigation(page));
      }
    });
  }
});
