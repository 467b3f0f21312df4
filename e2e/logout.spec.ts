import { expect, test } from '@playwright/test';
import { accountButton, signInAs } from './support/sign-in.ts';

test('logging out ends the session and returns to the login screen', async ({ page }) => {
  await signInAs(page, 'approver@loopdesk.test');

  await accountButton(page, 'approver@loopdesk.test').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();

  // Logout goes to /, which redirects to /login when signed out.
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('heading', { name: 'Login to your account' })).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('button', { name: 'Login with GSuite' })).toBeVisible();

  // page.request shares the page's cookies; no bearer token is sent.
  const me = await page.request.get('/internal/users/me');
  expect(me.status()).toBe(401);
  // The cookie is gone: the refresh answers 204 (nobody signed in) and gives no token.
  const refresh = await page.request.post('/auth/refresh', { data: {} });
  expect(refresh.status()).toBe(204);
  expect(await refresh.text()).toBe('');
});
