import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { raiseException, type DemoAssistant } from './support/federated.ts';
import { signInAs } from './support/sign-in.ts';
import {
  closeExceptionConversation,
  closeFederatedJob,
  openExceptionConversation,
  openFederatedJob,
} from './support/work-screens.ts';

/**
 * The analytics dashboard of `/` (issue 16): after a little demo work — a federated job answered
 * as an exception, a conversation of the exception desk answered and ended — a medical user opens
 * `/`, the built-in page in its frame shows that work, and a chart's CSV export downloads.
 */

/** The built-in analytics page inside `/`'s frame, once its figures have loaded. */
async function analyticsFrame(page: Page) {
  await page.goto('/');
  const frame = page.frameLocator('iframe[title="Analytics dashboard"]');
  await expect(frame.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible({
    timeout: 20_000,
  });
  await expect(frame.getByRole('region', { name: 'Queues' })).toBeVisible();
  return frame;
}

test.describe('the analytics dashboard', () => {
  let demo: DemoAssistant | undefined;
  test.afterEach(async ({ request }) => {
    await closeFederatedJob(request, demo);
    demo = undefined;
  });

  test('shows the work just done, and exports a chart as CSV', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'medical@loopdesk.test');

    // A federated job, answered as an exception.
    demo = await openFederatedJob(page, baseURL ?? '');
    await raiseException(page);
    await expect(page.getByRole('heading', { name: 'Annotate chief complaint' })).toBeHidden();
    await closeFederatedJob(request, demo);
    demo = undefined;

    // A conversation handed to the desk, answered by a human and ended.
    await openExceptionConversation(page, request);
    const reply = page.getByLabel('Manual input (USE WITH CAUTION)');
    await reply.fill('Hello Grace, a nurse here: please call 911 if the pain gets worse.');
    await reply.press('Enter');
    await expect(page.getByRole('list', { name: 'Transcript' })).toContainText('a nurse here');
    await closeExceptionConversation(page);

    const frame = await analyticsFrame(page);
    // No placeholder for a holder of analytics:dashboard:view (issue 15 item 8).
    await expect(page.getByText('This screen is not available yet.')).toBeHidden();
    const outcomes = frame.getByRole('region', { name: 'Outcomes per job type' });
    await expect(outcomes).toContainText(/message\.annotation/);
    const desk = frame.getByRole('region', { name: 'Exception desk', exact: true });
    await expect(desk).toContainText(/[1-9]\d* handovers? to humans/);
    // Counts and times only: the nurse's words are nowhere on the page.
    await expect(frame.getByText('a nurse here')).toHaveCount(0);
    // People are for leads: a medical user does not see them.
    await expect(frame.getByRole('region', { name: 'People' })).toHaveCount(0);
    await expect(desk.getByRole('row', { name: /^Ends [1-9]/ })).toBeVisible();

    const download = page.waitForEvent('download');
    await outcomes.getByRole('button', { name: 'Export CSV of Outcomes per job type' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^loopdesk-outcomes-per-job-type-.*\.csv$/);
    const csv = await readFile((await file.path()) ?? '', 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'Job type,Completed,Exceptions,Cancelled,Dead,Requeues after a dropped technician',
    );
    const row = csv.split('\r\n').find((line) => line.startsWith('message.annotation'));
    expect(row, csv).toBeDefined();
    expect(Number(row?.split(',')[2])).toBeGreaterThanOrEqual(1);
  });

  test('a lead sees the people, and a forged address is refused', async ({ page }) => {
    await signInAs(page, 'lead@loopdesk.test');
    const frame = await analyticsFrame(page);
    await expect(frame.getByRole('region', { name: 'Per technician' })).toBeVisible();

    await page.goto('/analytics/embed?token=forged.c2lnbmF0dXJl');
    await expect(page.getByRole('alert')).toContainText(/analytics address has been altered/);
  });
});
