import { expect, test } from '@playwright/test';
import { annotatorWaiting, cancelOpenJobs, completedResult, sendJob } from './support/federated.ts';

/**
 * Issue 20, point 9: Exception behaves the same on every screen. Spec 1 §4 "Exception flow": with
 * rephrase options (and no custom label) it goes to the rephrase screen; otherwise the exception
 * is sent. No screen asks first.
 */

const turn = {
  content: 'I have a tummy ache on the right side',
  messageId: 'm-9',
  userId: 'patient-9',
  metadata: { conversationId: 'c-9', entities: [] },
};
const complaintJob = (extra: Record<string, unknown> = {}) => ({
  quinnLastTurn: { content: 'How can we help today?' },
  lastTurn: turn,
  slotSpecification: {
    code: 'current_complaint',
    short_description: 'current complaint',
    data_type: 'text',
    multiplicity: '1..1',
  },
  slot: { id: 'slot-cc', code: 'current_complaint' },
  job: { purpose: 'full' },
  ...extra,
});

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

test('Exception on the annotation screen sends the exception at once', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(request, complaintJob());
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await completedResult(request, job)).toMatchObject({
    type: 'message.annotation',
    data: { action: 'suggest_escalation' },
  });
});

test('Exception on the reword screen sends the exception at once, as on the annotation screen', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(
    request,
    complaintJob({
      job: { purpose: 'reword' },
      entity: { extract: 'tummy ache', category: 'current_complaint' },
    }),
  );
  await expect(page.getByRole('textbox', { name: 'Reword sentence for tummy ache' })).toBeVisible();
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await completedResult(request, job)).toMatchObject({
    type: 'message.annotation',
    data: { action: 'suggest_escalation' },
  });
});

test('Exception on the rephrase screen sends the exception at once', async ({ page, request }) => {
  await annotatorWaiting(page);
  const job = await sendJob(
    request,
    complaintJob({ rephraseOptions: 'Where does it hurt?~When did the pain start?' }),
  );
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('heading', { name: 'Rephrase previous question.' })).toBeVisible();
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await completedResult(request, job)).toMatchObject({
    type: 'message.annotation',
    data: { action: 'suggest_escalation' },
  });
});
