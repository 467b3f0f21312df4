import { expect, test, type Page } from '@playwright/test';
import {
  discardTask,
  pipelineSection,
  publishTask,
  takeNext,
  toasts,
} from './support/async-jobs.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * Issue 20, async jobs (points 17–22): a working day in the async task screens, as a lead who
 * may work every step. Each test follows the steps of its trap.
 */

const UNKNOWN_TERM = 'xylointest';

/** The condition a condition task is about ("Condition: gout" on its screen). */
async function conditionOf(page: Page): Promise<string> {
  const line = await page
    .getByRole('main')
    .getByText(/^Condition: .+/)
    .first()
    .textContent();
  return (line ?? '').replace(/^Condition: /, '').trim();
}

test.beforeEach(async ({ page }) => {
  await signInAs(page, 'lead@loopdesk.test');
});

test('17: leaving a task with a struck symptom asks first; the draft comes back, also after a reload; My tasks leads back and releases', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const main = await takeNext(page, 'Condition symptoms', 'symptoms approval');
  const taskUrl = page.url();
  const condition = await conditionOf(page);
  const symptoms = main.getByRole('list', { name: 'Symptoms' });
  const remove = symptoms.getByRole('button', { name: /^Remove / }).first();
  const symptom = ((await remove.getAttribute('aria-label')) ?? '').replace(/^Remove /, '');
  await remove.click();
  const keep = symptoms.getByRole('button', { name: `Keep ${symptom}` });
  await expect(keep).toBeVisible();

  // Back asks first; staying keeps the screen as it is.
  await page.evaluate(() => history.back());
  const leave = page.getByRole('dialog', { name: 'Leave this task?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(taskUrl);
  await expect(keep).toBeVisible();

  // Leaving keeps the edit as a draft: My tasks lists the task and leads back to it.
  await page.evaluate(() => history.back());
  await leave.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/jobs\/async$/);
  const mine = page.getByRole('region', { name: 'My tasks' });
  await mine.getByRole('link', { name: condition }).first().click();
  await expect(page).toHaveURL(taskUrl);
  await expect(keep).toBeVisible();

  // Closing or reloading the tab asks too, and the draft lives on the server.
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(dialogs).toContain('beforeunload');
  await expect(keep).toBeVisible();

  // From My tasks the task goes back to its queue.
  await page.goto('/jobs/async');
  await mine
    .getByRole('button', { name: `Release ${condition} to its queue` })
    .first()
    .click();
  await expect(toasts(page).filter({ hasText: `Released “${condition}”` })).toBeVisible();
});

test('18: the task header names the pipeline, the step and its instruction, leads back, and shows no id or state code', async ({
  page,
}) => {
  const main = await takeNext(page, 'Clinical locations', 'internal review');
  const where = main.getByRole('navigation', { name: 'Where this task is' });
  await expect(where).toContainText('Clinical locations');
  await expect(where).toContainText('Internal review');
  await expect(main.getByText('Review the locations.', { exact: true })).toBeVisible();
  await expect(main).not.toContainText(/PENDING_|REGISTERED/);
  await expect(main).not.toContainText(/Task [0-9a-f]{8}-/);
  await where.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/jobs\/async$/);
});

test('19: Publish, Discard and Add job end with a toast that says what happened', async ({
  page,
}) => {
  await takeNext(page, 'Condition symptoms', 'symptoms approval');
  const condition = await conditionOf(page);
  await publishTask(page);
  await expect(
    toasts(page).filter({ hasText: `Published: Symptoms Approval for “${condition}”` }),
  ).toBeVisible();

  await takeNext(page, 'Condition medications', 'medications approval');
  const medicationsOf = await conditionOf(page);
  await discardTask(page);
  await expect(
    toasts(page).filter({ hasText: `Discarded: Medications Approval for “${medicationsOf}”` }),
  ).toBeVisible();

  await page.goto('/jobs/async/pipelines/4/_add_task');
  await page.getByRole('combobox', { name: 'Condition' }).fill('gout');
  await page.getByRole('option', { name: 'gout', exact: true }).click();
  await page.getByRole('textbox', { name: 'Source material' }).fill('EULAR gout guideline 2016');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(
    toasts(page).filter({ hasText: 'Success: “gout” was added to Condition complications' }),
  ).toBeVisible();
});

test('20: a value that is not a known concept is shown as a new term, and adding it asks once', async ({
  page,
}) => {
  const main = await takeNext(page, 'Clinical locations', 'add locations');
  const field = main.getByRole('combobox', { name: 'Anatomical Location' });
  const question = page.getByRole('dialog', { name: 'Add a new term?' });
  const chip = main.getByRole('button', { name: `${UNKNOWN_TERM} (new term)` });

  await field.fill(UNKNOWN_TERM);
  await field.press('Enter');
  await expect(question).toBeVisible();
  await expect(question).toContainText('is not a known concept');
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(chip).toHaveCount(0);

  await field.fill(UNKNOWN_TERM);
  await field.press('Enter');
  await question.getByRole('button', { name: 'Add new term' }).click();
  await expect(question).toBeHidden();
  await expect(chip).toBeVisible();
});

test('21: the annotation screen takes digits for its categories, as the federated menu does', async ({
  page,
}) => {
  const main = await takeNext(page, 'Text annotation', 'annotate');
  const text = main.locator('[aria-roledescription="annotatable text"]');
  // Select the first words from the keyboard (the text's own caret), as a mouse drag would.
  await text.focus();
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+ArrowRight');
  }
  await expect(main.getByRole('group', { name: 'Category' })).toBeVisible();
  await page.keyboard.press('3');
  const table = main.getByRole('table', { name: 'Annotations' });
  await expect(table.getByRole('combobox', { name: /^Category/ }).last()).toHaveText('Onset');
});

test('22: the dashboard can show only steps with jobs, lines up its buttons and capitalises step names; differential ranks once; intents read as words', async ({
  page,
}) => {
  await page.goto('/jobs/async');
  const complications = pipelineSection(page, 'Condition complications');
  // Step names follow the section titles: "Add complications", not "add complications".
  await expect(
    complications.getByRole('article', { name: 'Add complications', exact: true }),
  ).toBeVisible();

  // Take Next Job buttons sit at the bottom of their cards: cards side by side line them up.
  const cards = page.getByRole('article');
  const boxes: { top: number; button: number }[] = [];
  for (const card of await cards.all()) {
    const cardBox = await card.boundingBox();
    const buttonBox = await card.getByRole('button').last().boundingBox();
    if (cardBox && buttonBox) {
      boxes.push({
        top: Math.round(cardBox.y),
        button: buttonBox.y + buttonBox.height,
      });
    }
  }
  for (const box of boxes) {
    for (const other of boxes.filter((candidate) => candidate.top === box.top)) {
      expect(Math.abs(other.button - box.button)).toBeLessThan(2);
    }
  }

  // Only the steps with jobs: an empty step's card goes.
  const empty = page.getByRole('button', { name: 'Job queue empty' });
  await page.getByRole('switch', { name: 'Only steps with jobs' }).check();
  await expect(empty).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Take Next Job' }).first()).toBeVisible();

  // Rank differential: the ranking shows once, and a typed diagnosis is a new term.
  let main = await takeNext(page, 'Differential diagnosis', 'rank differential');
  const diagnoses = main.getByRole('combobox', { name: 'Diagnoses' });
  await diagnoses.click();
  const option = page.getByRole('option').first();
  const name = ((await option.textContent()) ?? '').trim();
  await option.click();
  await page.keyboard.press('Escape');
  await expect(main.getByText(name, { exact: false })).toHaveCount(1);
  await expect(main.getByRole('list', { name: 'Ranking' })).toContainText(`1. ${name}`);
  await discardTask(page);

  // Rephrase approval: the intents in words.
  main = await takeNext(page, 'Rephrase', 'rephrase approval');
  await expect(main.getByRole('radio', { name: 'Clinical or medical' })).toBeVisible();
  await expect(main.getByRole('radio', { name: "Workers' compensation" })).toBeVisible();
  await expect(main.getByRole('radio', { name: 'workers_comp' })).toHaveCount(0);
  await discardTask(page);
});
