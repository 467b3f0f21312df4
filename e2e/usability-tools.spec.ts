import { expect, test, type Locator, type Page } from '@playwright/test';
import { signInAs } from './support/sign-in.ts';

const TEXT =
  'I have pain in my lower right tummy that started around my belly button. I have been throwing up and I have a fever. No cough. I feel sick.';

/** Runs the clinical inference tool on TEXT up to the observation chips. */
async function recognise(page: Page): Promise<Locator> {
  await page.goto('/test/clinical-inference');
  await page.getByRole('textbox', { name: 'Input Text' }).fill(TEXT);
  await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();
  const chips = page.getByRole('list', { name: 'Selected observations' });
  await expect(chips.getByRole('button', { name: 'fever', exact: true })).toBeVisible();
  return chips;
}

test.beforeEach(async ({ page }) => {
  await signInAs(page, 'medical@loopdesk.test');
});

test('issue 20 #26: the prediction lists the top 10 by likelihood with Show all (n), 2 decimals with a bar, high acuity marked', async ({
  page,
}) => {
  await recognise(page);
  await page.getByRole('button', { name: 'PREDICT' }).click();
  const table = page.getByRole('table', { name: 'Differential Diagnosis Prediction' });
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toBeVisible();

  // Ten conditions, the likeliest first, and a way to see the rest.
  const showAll = page.getByRole('button', { name: /^Show all \(\d+\)$/ });
  await expect(showAll).toBeVisible();
  const total = Number(/\((\d+)\)/.exec((await showAll.textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThan(10);
  await expect(rows).toHaveCount(11);
  const likelihoods = await table
    .getByRole('cell', { name: /^Likelihood / })
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('aria-label') ?? ''));
  const values = likelihoods.map((label) => Number(label.replace('Likelihood ', '')));
  expect(values).toHaveLength(10);
  expect(values).toEqual([...values].sort((a, b) => b - a));
  for (const label of likelihoods) {
    expect(label).toMatch(/^Likelihood \d\.\d\d$/);
  }

  // Each likelihood has a bar; appendicitis, an emergency, is marked so.
  const top = rows.nth(1);
  await expect(top.getByRole('cell').first()).toContainText('appendicitis');
  await expect(top.getByRole('progressbar')).toBeVisible();
  await expect(top.getByText('Emergent', { exact: true })).toBeVisible();

  await showAll.click();
  await expect(rows).toHaveCount(total + 1);
  await expect(page.getByRole('button', { name: 'Show the top 10' })).toBeVisible();
});

test('issue 20 #26: "No cough" shows as a denied observation and is sent as denied', async ({
  page,
}) => {
  const chips = await recognise(page);
  const denied = chips.getByRole('button', { name: 'No cough', exact: true });
  await expect(denied).toBeVisible();
  await expect(chips.getByRole('button', { name: 'cough', exact: true })).toHaveCount(0);

  const predicted = page.waitForRequest('**/clinical_inference/differential_diagnosis');
  await page.getByRole('button', { name: 'PREDICT' }).click();
  const body = (await predicted).postDataJSON() as { observations: Record<string, unknown>[] };
  expect(body.observations).toContainEqual({ observation: 'cough', presence: 'deny' });
  expect(body.observations).toContainEqual({ observation: 'fever' });
});

test('issue 20 #26: entity recognition: hovering shows code and concept; a negated entity looks negated', async ({
  page,
}) => {
  await page.goto('/test/entity-recognition');
  await page
    .getByRole('textbox', { name: 'Input Text' })
    .fill('I have had a sore throat and a fever since yesterday, no cough. My tummy is swollen.');
  await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();
  const entities = page.getByRole('region', { name: 'Entities' });

  await entities.getByText('tummy is swollen', { exact: true }).hover();
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toContainText('Concept: swollen distended abdomen');
  await expect(tooltip).toContainText(/Code: \S+/);

  // "no cough": the cough chip is struck through and says it is negated.
  const cough = entities.getByText('cough', { exact: true });
  await expect(cough).toHaveCSS('text-decoration-line', 'line-through');
  await expect(entities.getByText('cough (negated)', { exact: true })).toBeAttached();
  await cough.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: 'Negated' })).toBeVisible();
  // A present entity is not.
  await expect(entities.getByText('fever', { exact: true })).not.toHaveCSS(
    'text-decoration-line',
    'line-through',
  );
});
