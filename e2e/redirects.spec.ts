import { expect, test } from '@playwright/test';
import { signInAs } from './support/sign-in.ts';

test('a signed-out visit to a jobs screen signs in and lands on that screen', async ({ page }) => {
  await page.goto('/jobs/federated');
  await expect(page).toHaveURL('/login');

  await signInAs(page, 'annotator@loopdesk.test');

  await expect(page).toHaveURL('/jobs/federated');
  await expect(page.getByRole('heading', { name: 'Federated Jobs' }).first()).toBeVisible();
  await expect(page.getByText('Paused click resume to continue')).toBeVisible();
});

test('a signed-out visit to an admin screen is not remembered: sign-in lands on /', async ({
  page,
}) => {
  await page.goto('/admin/user-management');
  await expect(page).toHaveURL('/login');

  await signInAs(page, 'admin@loopdesk.test');

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Ada Admin' })).toBeVisible();
});

test('the login screen sends a signed-in user to /', async ({ page }) => {
  await signInAs(page, 'approver@loopdesk.test');
  await page.goto('/jobs/async');
  await expect(page).toHaveURL('/jobs/async');

  await page.goto('/login');

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Login to your account' })).toBeHidden();
});

test('a remembered target expires after five minutes: sign-in then lands on /', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/jobs/federated');
  await expect(page).toHaveURL('/login');

  // The person comes back to the login screen more than five minutes later.
  await page.clock.fastForward('05:01');
  await signInAs(page, 'annotator@loopdesk.test');

  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Welcome, Ann Annotator' })).toBeVisible();
});

test('a /conversations target is remembered with its query string', async ({ page }) => {
  await page.goto('/conversations?id=abc');
  await expect(page).toHaveURL('/login');

  await signInAs(page, 'medical@loopdesk.test');

  await expect(page).toHaveURL('/conversations?id=abc');
});
