import { expect, type Locator, type Page } from '@playwright/test';

/** A pipeline's section of the async dashboard, by its title. */
export const pipelineSection = (page: Page, pipeline: string): Locator =>
  page.getByRole('region', { name: pipeline, exact: true });

/** A step's card of a pipeline, by the step's name as shown (any capitalisation). */
export const stepCard = (page: Page, pipeline: string, step: string): Locator =>
  pipelineSection(page, pipeline).getByRole('article', {
    name: new RegExp(`^${step}$`, 'i'),
  });

/** Opens the dashboard and takes the next job of a step; resolves on the task screen. */
export async function takeNext(page: Page, pipeline: string, step: string): Promise<Locator> {
  await page.goto('/jobs/async');
  await stepCard(page, pipeline, step).getByRole('button', { name: 'Take Next Job' }).click();
  await expect(page).toHaveURL(/\/jobs\/async\/pipelines\/\d+\/steps\/[a-z_]+\/tasks\//);
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Publish' })).toBeVisible();
  return main;
}

/** Publish, answer 'Are you sure?', and wait for the way back to the dashboard. */
export async function publishTask(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Publish' }).click();
  await page
    .getByRole('dialog', { name: 'Publish' })
    .getByRole('button', { name: 'Publish' })
    .click();
  await expect(page).toHaveURL(/\/jobs\/async$/);
}

/** Discard with a note, and wait for the way back to the dashboard. */
export async function discardTask(page: Page, note = 'Not needed for this test.'): Promise<void> {
  await page.getByRole('main').getByRole('button', { name: 'Discard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard this job' });
  await dialog.getByRole('textbox', { name: /Note/ }).fill(note);
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/jobs\/async$/);
}

/** The toasts on screen now. */
export const toasts = (page: Page): Locator => page.getByRole('alert');
