import { expect, type Locator, type Page } from '@playwright/test';
import { demoAccount, type DemoEmail } from './demo-accounts.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The account button of the top bar: it carries the user's display name. */
export function accountButton(page: Page, email: DemoEmail): Locator {
  return page.getByRole('button', { name: demoAccount(email).displayName, exact: true });
}

/** The disclaimer shown once per user after sign-in. */
export function disclaimerDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Disclaimer' });
}

/**
 * Signs in through the real popup flow: /login → 'Login with GSuite' opens /auth/login in a popup
 * → the development provider lists the demo accounts → one click signs in and the popup closes.
 * Then waits for the shell and agrees to the disclaimer if it shows (or, with
 * `agreeToDisclaimer: false`, stops at the disclaimer).
 */
export async function signInAs(
  page: Page,
  email: DemoEmail,
  options: { agreeToDisclaimer?: boolean } = {},
): Promise<void> {
  await page.goto('/login');

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login with GSuite' }).click();
  const popup = await popupOpened;

  const popupClosed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: new RegExp(`^${escapeRegExp(email)}`) }).click();
  await popupClosed;

  // While the disclaimer is open the rest of the page is hidden from assistive technology (and
  // from role locators), so wait for whichever shows first.
  const account = accountButton(page, email);
  const disclaimer = disclaimerDialog(page);
  if (options.agreeToDisclaimer === false) {
    // A fresh browser has not agreed yet: the disclaimer shows over the shell.
    await expect(disclaimer).toBeVisible();
    return;
  }
  await expect(account.or(disclaimer)).toBeVisible();
  if (await disclaimer.isVisible()) {
    await disclaimer.getByRole('button', { name: 'Agree' }).click();
    await expect(disclaimer).toBeHidden();
  }
  await expect(account).toBeVisible();
}

/**
 * Trades the page's refresh cookie for an access token, as the portal does: once more when the
 * server says another request of this browser replaced the cookie a moment ago (Retry-After).
 */
export async function accessTokenOf(page: Page): Promise<string> {
  let response = await page.request.post('/auth/refresh', { data: {} });
  if (response.status() === 401 && response.headers()['retry-after']) {
    await page.waitForTimeout(1_000);
    response = await page.request.post('/auth/refresh', { data: {} });
  }
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { accessToken?: unknown };
  expect(typeof body.accessToken).toBe('string');
  return String(body.accessToken);
}
