import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInAs } from './support/sign-in.ts';

const CONDITION = 'gout';
// A complication no knowledge base has, so finding it proves the write-back.
const COMPLICATION = `Tophaceous zebra arthropathy ${Date.now().toString(36)}`;

const pipeline = (page: Page) => page.getByRole('region', { name: 'Condition complications' });
const stepCard = (page: Page, step: string) =>
  pipeline(page).getByRole('article', { name: step, exact: true });

/**
 * Takes the next job of a step of the complications pipeline until it is one for `condition`;
 * the demo seeds older tasks in every step, and those are discarded with a note on the way.
 */
async function takeTaskFor(page: Page, step: string, condition: string): Promise<Locator> {
  for (let attempt = 0; attempt < 6; attempt++) {
    await page.goto('/jobs/async');
    await stepCard(page, step).getByRole('button', { name: 'Take Next Job' }).click();
    await expect(page).toHaveURL(/\/jobs\/async\/pipelines\/4\/steps\/[a-z_]+\/tasks\//);
    const screen = page.getByRole('main');
    await expect(screen.getByRole('button', { name: 'Publish' })).toBeVisible();
    if ((await screen.getByText(`Condition: ${condition}`, { exact: true }).count()) > 0) {
      return screen;
    }
    await screen.getByRole('button', { name: 'Discard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard this job' });
    await dialog.getByRole('textbox', { name: /Note/ }).fill('Not the condition under test.');
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect(page).toHaveURL(/\/jobs\/async$/);
  }
  throw new Error(`no ${step} task for ${condition} came up`);
}

/** Publish, answer 'Are you sure?', and wait for the way back to the dashboard. */
async function publish(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish' });
  await expect(dialog).toContainText('Are you sure?');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/jobs\/async$/);
}

test('a complication added by an annotator and approved twice is found through concept search', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);

  // First, Ann adds a gout job to the complication pipeline from the dashboard's plus button.
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/async');
  await expect(page.getByRole('banner')).toContainText('Asynchronous Jobs - Dashboard');
  await page.getByRole('button', { name: 'Add a job to Condition complications' }).click();
  await expect(
    page.getByRole('heading', { name: 'Add a new condition to complication pipeline' }),
  ).toBeVisible();
  const publishJob = page.getByRole('button', { name: 'Publish' });
  await expect(publishJob).toBeDisabled();
  await page.getByRole('combobox', { name: 'Condition' }).fill(CONDITION);
  await page.getByRole('option', { name: CONDITION, exact: true }).click();
  await page.getByRole('textbox', { name: 'Source material' }).fill('EULAR gout guideline 2016');
  await publishJob.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Success' })).toBeVisible();
  await expect(page).toHaveURL(/\/jobs\/async$/);

  // Second, she takes it and adds a complication that is in no knowledge base yet.
  let screen = await takeTaskFor(page, 'Add complications', CONDITION);
  await expect(screen.getByRole('heading', { name: 'Condition Complication Job' })).toBeVisible();
  await screen.getByRole('combobox', { name: 'Complication' }).fill(COMPLICATION);
  await screen.getByRole('button', { name: 'Add Complication' }).click();
  await expect(screen.getByRole('button', { name: `Delete ${COMPLICATION}` })).toBeVisible();
  await publish(page);

  // Third, Abe approves it internally and externally.
  const approverContext = await browser.newContext();
  const abe = await approverContext.newPage();
  try {
    await signInAs(abe, 'approver@loopdesk.test');
    for (const step of ['Internal approval', 'External approval']) {
      screen = await takeTaskFor(abe, step, CONDITION);
      await expect(
        screen.getByRole('heading', { name: 'Complications Approval Job' }),
      ).toBeVisible();
      await expect(
        screen.getByRole('list', { name: 'Complications' }).getByText(COMPLICATION),
      ).toBeVisible();
      await publish(abe);
    }
  } finally {
    await approverContext.close();
  }

  // Last, concept search finds the new complication: the add-job condition search offers it.
  await page.goto('/jobs/async/pipelines/4/_add_task');
  await page.getByRole('combobox', { name: 'Condition' }).fill(COMPLICATION.toLowerCase());
  await expect(page.getByRole('option', { name: COMPLICATION, exact: true })).toBeVisible();
});
