import { expect, test, type Locator, type Page } from '@playwright/test';
import { stepCard, toasts } from './support/async-jobs.ts';
import { signInAs } from './support/sign-in.ts';

/** Presses Tab until `target` has the focus (at most `limit` times); fails if it never does. */
async function tabTo(page: Page, target: Locator, limit = 150): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) {
      return;
    }
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/**
 * Issue 20, proof: one async task (take, edit, publish) without the mouse, asserting where the
 * focus is after each step.
 */
test('an async rephrase task is taken, edited and published from the keyboard alone', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, 'lead@loopdesk.test');
  await page.goto('/jobs/async');

  // Take: Tab to the step's Take Next Job, Enter. The task opens with its title focused.
  const take = stepCard(page, 'Rephrase', 'rephrase').getByRole('button', {
    name: 'Take Next Job',
  });
  await tabTo(page, take);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/jobs\/async\/pipelines\/1\/steps\/rephrase\/tasks\//);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Rephrase Job' })).toBeFocused();

  // Edit: the next Tab reaches the rephrase field; Enter adds, and the focus stays to add more.
  const field = main.getByRole('textbox', { name: 'Rephrase' });
  await page.keyboard.press('Tab');
  await expect(field).toBeFocused();
  await page.keyboard.type('How long has the pain lasted?');
  await page.keyboard.press('Enter');
  await expect(main.getByRole('list', { name: 'Added rephrases' })).toContainText(
    'How long has the pain lasted?',
  );
  await expect(field).toBeFocused();
  await page.keyboard.type('Since when have you had this pain?');
  await page.keyboard.press('Enter');
  await expect(field).toBeFocused();
  await expect(
    main.getByRole('list', { name: 'Added rephrases' }).getByRole('listitem'),
  ).toHaveCount(2);

  // Publish: Tab to Publish, Enter; the question has the focus on its Publish; Enter.
  const publish = main.getByRole('button', { name: 'Publish' });
  await tabTo(page, publish, 20);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Publish' }).getByRole('button', {
    name: 'Publish',
  });
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');

  // Back on the dashboard: a toast says what happened, and the focus is on the step's card
  // (its Take Next Job when another job waits), ready for the next one.
  await expect(page).toHaveURL(/\/jobs\/async$/);
  await expect(toasts(page).filter({ hasText: 'Published: Rephrase Job' })).toBeVisible();
  const card = stepCard(page, 'Rephrase', 'rephrase');
  await expect
    .poll(() =>
      card.evaluate(
        (element) => element === document.activeElement || element.contains(document.activeElement),
      ),
    )
    .toBe(true);
});
