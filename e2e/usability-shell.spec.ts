import { expect, test, type Page } from '@playwright/test';
import { navigation } from './support/drawer.ts';
import { signInAs } from './support/sign-in.ts';

/** Counts the alert tones the page plays (each beep creates one oscillator). */
async function countTones(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const scope = window as unknown as { alertTones: number; AudioContext: typeof AudioContext };
    scope.alertTones = 0;
    const Original = scope.AudioContext;
    scope.AudioContext = class extends Original {
      override createOscillator(): OscillatorNode {
        scope.alertTones += 1;
        return super.createOscillator();
      }
    };
  });
  return () => page.evaluate(() => (window as unknown as { alertTones: number }).alertTones);
}

test('issue 20 #23: the bell counts, lists and sounds only the queues the role may open', async ({
  page,
}) => {
  const tones = await countTones(page);
  // Work waits on the exception queue, which neither an annotator nor an approver may open, and
  // on the summary queue; the federated queue is empty. (The sizes are the server's answers,
  // fixed here so that the test does not depend on what other tests left in the queues.)
  const sizes: Record<string, number> = { federated: 0, exceptions: 3, 'hpi-summarisation': 2 };
  const sizeRequests: string[] = [];
  await page.route('**/internal/queues/*/_size', (route) => {
    const queue = /\/internal\/queues\/([^/]+)\/_size$/.exec(route.request().url())?.[1] ?? '';
    sizeRequests.push(queue);
    return route.fulfill({ json: { size: sizes[queue] ?? 0 } });
  });

  // First, Ann the annotator: she may open the federated and summary queues, not exceptions.
  await signInAs(page, 'annotator@loopdesk.test');
  const bell = page.getByRole('button', { name: 'Queue sizes: 2' });
  await expect(bell).toBeVisible({ timeout: 12_000 });
  await bell.click();
  await expect(page.getByRole('menuitem')).toHaveText(['0 Federated Job Queue', '2 Summary Jobs']);
  await page.keyboard.press('Escape');
  // A poll later: her portal never asked for the exception queue, and nothing sounded (only
  // federated or exception work sounds, and the exception queue is not hers).
  const polled = sizeRequests.length;
  await expect.poll(() => sizeRequests.length, { timeout: 12_000 }).toBeGreaterThan(polled);
  expect(sizeRequests).not.toContain('exceptions');
  expect(await tones()).toBe(0);

  // Second, Abe the approver: no queue of the bell is his, so there is no bell and no sound.
  await page.context().clearCookies();
  sizeRequests.length = 0;
  await signInAs(page, 'approver@loopdesk.test');
  await expect(page.getByRole('button', { name: /^Queue sizes/ })).toHaveCount(0);
  // One poll period later still nothing was asked and nothing sounded.
  await page.waitForTimeout(6_000);
  expect(sizeRequests).toEqual([]);
  expect(await tones()).toBe(0);
});

test('issue 20 #23: a user with every role sees the spec bell: three queues in the spec words', async ({
  page,
}) => {
  await signInAs(page, 'lead@loopdesk.test');
  const bell = page.getByRole('button', { name: /^Queue sizes: \d+$/ });
  await expect(bell).toBeVisible({ timeout: 12_000 });
  await bell.click();
  await expect(page.getByRole('menuitem')).toHaveText([
    /^\d+ Federated Job Queue$/,
    /^\d+ Exceptions Queue$/,
    /^\d+ Summary Jobs$/,
  ]);
});

test('issue 20 #24: a cold start signed out logs no error in the console', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) {
      failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    }
  });

  await page.goto('/');
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('button', { name: 'Login with GSuite' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Login with GSuite' })).toBeVisible();

  expect(failed).toEqual([]);
  expect(errors).toEqual([]);
});

test('issue 20 #25: the drawer opens the group of the current page, also after navigating to it', async ({
  page,
}) => {
  // Ada the admin lands on the home page, which lists her screens.
  await signInAs(page, 'admin@loopdesk.test');
  const nav = navigation(page);
  const adminGroup = nav.getByRole('button', { name: 'Admin', exact: true });
  await expect(adminGroup).toHaveAttribute('aria-expanded', 'false');

  // From the home page's own link (not the drawer) to a screen of the closed Admin group.
  await page.getByRole('main').getByRole('link', { name: 'User Management' }).click();
  await expect(page).toHaveURL('/admin/user-management');
  await expect(adminGroup).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'User Management' })).toBeVisible();

  // Straight to a screen by its address.
  await page.goto('/admin/system/redis');
  await expect(nav.getByRole('button', { name: 'Sysadmin' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(nav.getByRole('link', { name: 'Redis' })).toBeVisible();
});

test('issue 20 #25: the drawer shows no group without a screen for the role', async ({ page }) => {
  await signInAs(page, 'approver@loopdesk.test');
  const nav = navigation(page);
  await expect(nav.getByRole('link', { name: 'Async Jobs' })).toBeVisible();
  await expect(nav.getByRole('button')).toHaveText(['Jobs']);
  await expect(nav.getByText('No screens for your roles')).toHaveCount(0);
});
