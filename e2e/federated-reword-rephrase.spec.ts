import { expect, test, type Page } from '@playwright/test';
import {
  annotate,
  annotatorWaiting,
  cancelOpenJobs,
  completedResult,
  sendJob,
  toast,
} from './support/federated.ts';

/** The reword step, the reword job and the rephrase flow (spec 1 §2, §4) in Chromium. */

const TUMMY = 'I have a tummy ache on the right side';
const turn = {
  content: TUMMY,
  messageId: 'm-7',
  userId: 'patient-7',
  metadata: { conversationId: 'c-7', entities: [] },
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

const submit = (page: Page) => page.getByRole('button', { name: 'Submit', exact: true });

test('the reword step: a complaint is reworded before the real submit, Back keeps the annotations', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(request, complaintJob());
  await annotate(page, 'tummy ache', 'current complaint');
  await submit(page).click();

  // 'Reword sentence for' with the complaint's prompt as the starting text.
  const field = page.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
  await expect(field).toHaveValue(
    'When did tummy ache start? Can you describe any symptoms that happen with tummy ache?',
  );
  await expect(
    page
      .getByRole('region', { name: 'Reword' })
      .getByRole('paragraph')
      .filter({ hasText: 'When did tummy ache start?' }),
  ).toBeVisible();

  // Back returns to the annotation, which is still there.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(
    page.getByRole('button', { name: 'Delete Current complaint: tummy ache' }),
  ).toBeVisible();
  await submit(page).click();

  // A blank rewording is refused; a real one goes to the assistant with the annotation.
  await field.fill('   ');
  await submit(page).click();
  await expect(toast(page, 'Enter the reworded sentence for tummy ache.')).toBeVisible();
  await field.fill('Since when has your tummy hurt, and does anything else come with it?');
  await submit(page).click();
  await expect(page.getByText('Waiting for next message')).toBeVisible();

  const result = await completedResult(request, job);
  expect(result).toEqual({
    type: 'message.annotation',
    data: {
      jobId: job,
      action: 'answer',
      conversationId: 'c-7',
      messageId: 'm-7',
      userId: 'patient-7',
      entities: [{ start: 9, end: 19, extract: 'tummy ache', category: 'current_complaint' }],
      slot: { id: 'slot-cc', type: 'text', code: 'current_complaint', value: null },
      rewordings: [
        {
          entityExtract: 'tummy ache',
          category: 'current_complaint',
          text: 'Since when has your tummy hurt, and does anything else come with it?',
        },
      ],
    },
  });
});

test('the reword job: the entity is reworded and the answer goes to the assistant (suggest_entity_reword)', async ({
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
  const field = page.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
  await expect(field).toBeVisible();
  await field.fill('When did the tummy ache begin?');
  await submit(page).click();
  const result = await completedResult(request, job);
  expect(result).toMatchObject({
    type: 'quinn.action.answer_quinn',
    data: {
      action: 'suggest_entity_reword',
      conversationId: 'c-7',
      messageId: 'm-7',
      userId: 'patient-7',
      entity: { extract: 'tummy ache', category: 'current_complaint' },
      rewordings: [
        {
          entityExtract: 'tummy ache',
          category: 'current_complaint',
          text: 'When did the tummy ache begin?',
        },
      ],
    },
  });
});

test('the rephrase flow: Exception opens the rephrase screen, a question must be chosen, the assistant gets it', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(
    request,
    complaintJob({ rephraseOptions: 'Where does it hurt?~When did the pain start?' }),
  );
  await expect(page.getByRole('heading', { name: 'Annotate current complaint' })).toBeVisible();

  // With rephrase options, Exception leads to 'Rephrase previous question.'; Back returns.
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('heading', { name: 'Rephrase previous question.' })).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Annotate current complaint' })).toBeVisible();
  await page.getByRole('button', { name: 'Exception' }).click();

  // No choice: 'Please select a question to continue.'
  const options = page.getByRole('radiogroup', { name: 'Rephrase previous question.' });
  await expect(options.getByRole('radio')).toHaveCount(2);
  await submit(page).click();
  await expect(toast(page, 'Please select a question to continue.')).toBeVisible();

  await options.getByRole('radio', { name: 'When did the pain start?' }).check();
  await submit(page).click();
  const result = await completedResult(request, job);
  expect(result).toEqual({
    type: 'message.rephrase.question',
    data: {
      jobId: job,
      conversationId: 'c-7',
      recipientId: 'patient-7',
      message: 'When did the pain start?',
      replyType: 'REPHRASE',
      replyTo: 'm-7',
    },
  });
});

test("the rephrase screen's own Exception sends the exception", async ({ page, request }) => {
  await annotatorWaiting(page);
  const job = await sendJob(
    request,
    complaintJob({ rephraseOptions: 'Where does it hurt?~When did the pain start?' }),
  );
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('heading', { name: 'Rephrase previous question.' })).toBeVisible();
  await page.getByRole('button', { name: 'Exception' }).click();
  const result = await completedResult(request, job);
  expect(result).toMatchObject({
    type: 'message.annotation',
    data: { action: 'suggest_escalation', entities: [], slot: { code: 'current_complaint' } },
  });
});

test('a custom exception label names the Exception button, skips the rephrase screen and sends suggest_forget', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(
    request,
    complaintJob({
      job: { purpose: 'full', exceptionLabel: 'Not about health' },
      rephraseOptions: 'Where does it hurt?~When did the pain start?',
    }),
  );
  await expect(page.getByRole('button', { name: 'Exception', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Not about health' }).click();
  await expect(page.getByRole('heading', { name: 'Rephrase previous question.' })).toHaveCount(0);
  const result = await completedResult(request, job);
  expect(result).toMatchObject({
    type: 'message.annotation',
    data: { action: 'suggest_forget', entities: [], slot: { code: 'current_complaint' } },
  });
});
