import { expect, test, type Page } from '@playwright/test';
import {
  annotate,
  annotatorWaiting,
  answerQuestion,
  cancelOpenJobs,
  completedResult,
  raiseException,
  sendJob,
  toast,
} from './support/federated.ts';

/**
 * Every validation message of spec 1 §5 in Chromium, each on the screen that shows it (workbench
 * README decision 7): the generic screen for a job with a purpose, the older screen for a job
 * without one, the two-step flow for an intent job. Each message is refused before anything
 * reaches the assistant; then the job is finished properly.
 */

const TEXT = 'I feel rough and my back hurts since Monday';
const turn = (entities: unknown[] = []) => ({
  content: TEXT,
  messageId: 'm-1',
  userId: 'patient-1',
  metadata: { conversationId: 'c-1', entities },
});
const slotJob = (
  slot: { code: string; data_type?: string; multiplicity?: string },
  purpose: string | null,
  extra: Record<string, unknown> = {},
) => ({
  quinnLastTurn: { content: 'How can we help?' },
  lastTurn: turn(),
  slotSpecification: { short_description: slot.code.replace('_', ' '), data_type: 'text', ...slot },
  slot: { id: `slot-${slot.code}`, code: slot.code },
  ...(purpose === null ? {} : { job: { purpose } }),
  ...extra,
});

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

/** Submit is refused with `message`; the job stays on the screen, unfinished. */
async function refusedWith(page: Page, jobId: string, message: string) {
  await expect(toast(page, message)).toBeVisible();
  await expect(page.getByText('Waiting for next message')).toBeHidden();
  return jobId;
}

test('the generic screen: yes/no, the target slot or a single new intent, one patient description, correctly annotated', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);

  // A boolean slot answered from the menu: nothing chosen says yes/no.
  let job = await sendJob(
    request,
    slotJob({ code: 'back_pain', data_type: 'boolean', multiplicity: '1..1' }, 'full'),
  );
  await expect(page.getByRole('heading', { name: 'Annotate back pain' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await refusedWith(page, job, 'You need to make a selection of yes/no.');
  await annotate(page, 'back hurts', 'Endorse');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  expect((await completedResult(request, job)).data.slot).toMatchObject({ value: 'endorse' });

  // A standard slot: another category is not the target.
  job = await sendJob(request, slotJob({ code: 'duration' }, 'full'));
  await expect(page.getByRole('heading', { name: 'Annotate duration' })).toBeVisible();
  await annotate(page, 'back hurts', 'Symptom');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await refusedWith(
    page,
    job,
    'You need to annotate the target slot to mark this as successful or a single new intent.',
  );
  // Annotated now, the exception is refused: the message is correctly annotated.
  await annotate(page, 'since Monday', 'duration');
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(toast(page, 'This message is correctly annotated.')).toBeVisible();
  await expect(page.getByRole('dialog')).toBeHidden();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  expect((await completedResult(request, job)).data.entities).toEqual([
    { start: 20, end: 30, extract: 'back hurts', category: 'sx' },
    { start: 31, end: 43, extract: 'since Monday', category: 'duration' },
  ]);

  // One patient description only.
  job = await sendJob(request, slotJob({ code: 'patient_description' }, 'full'));
  await expect(page.getByRole('heading', { name: 'Annotate patient description' })).toBeVisible();
  await annotate(page, 'feel rough', 'patient description');
  await annotate(page, 'back hurts', 'patient description');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await refusedWith(page, job, 'Only one patient description annotation is allowed.');
  await raiseException(page);
  expect((await completedResult(request, job)).data.action).toBe('suggest_escalation');
});

test('the older screen: endorses/denies, annotate or press pass, the target slot', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);

  // A boolean slot with the endorses/denies toggle.
  let job = await sendJob(
    request,
    slotJob({ code: 'back_pain', data_type: 'boolean', multiplicity: '1..1' }, null),
  );
  await expect(page.getByRole('group', { name: 'Answer' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await refusedWith(page, job, 'You need to make a selection of endorses/denies.');
  await page.getByRole('button', { name: 'Deny' }).click();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  expect((await completedResult(request, job)).data).toMatchObject({
    action: 'execute',
    slot: { code: 'back_pain', value: 'deny' },
  });

  // A standard optional slot: nothing annotated and no pass, then another category.
  job = await sendJob(request, slotJob({ code: 'duration', multiplicity: '0..1' }, null));
  await expect(page.getByRole('button', { name: 'Patient unsure' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await refusedWith(page, job, 'You need to annotate an the slot or press pass');
  await annotate(page, 'back hurts', 'Symptom');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await refusedWith(page, job, 'You need to annotate the target slot to mark this as successful.');
  // Patient unsure (the pass) submits '__skipped__' after its confirmation.
  await page.getByRole('button', { name: 'Patient unsure' }).click();
  await page.getByRole('button', { name: 'Submit as unsure' }).click();
  expect((await completedResult(request, job)).data).toMatchObject({
    entities: [],
    slot: { code: 'duration', value: '__skipped__' },
  });
});

test('the two-step flow: the agenda, an intent, then the assistant classifies it (message.intents)', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(
    request,
    {
      quinnLastTurn: { content: 'What would you like to talk about today?' },
      lastTurn: turn([{ start: 20, end: 30, extract: 'back hurts', category: 'sx' }]),
    },
    'intent.classification.job',
  );
  await expect(page.getByRole('heading', { name: 'Annotate the agenda intent' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await refusedWith(page, job, 'Please ensure you annotate the agenda of the utterance.');

  // Reloading hands the job back to the queue; it comes again with its own annotation, which is
  // not an intent.
  await page.reload();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('heading', { name: 'Annotate the agenda intent' })).toBeVisible();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await refusedWith(page, job, 'You need to annotate an intent.');

  // The agenda: 'back hurts' is an urgent symptom; then the entities, with Back in between.
  await annotate(page, 'back hurts', 'Urgent symptom');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(page.getByText('Agenda: Urgent symptom')).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await annotate(page, 'since Monday', 'Duration');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();

  // The assistant is asked (message.intents) and answers with the event the portal submits.
  const question = await answerQuestion(request, 'message.intents', (asked) => ({
    type: 'message.annotation',
    data: {
      action: 'urgent+hpi',
      ...(asked.body.message as object),
      entities: asked.body.entities,
      slot: { id: '', type: 'intent', code: 'intent', value: 'urgent+hpi' },
    },
  }));
  expect(question).toMatchObject({
    tenant: 'acme-clinic',
    body: {
      message: { conversationId: 'c-1', messageId: 'm-1', userId: 'patient-1' },
      entities: [
        { start: 20, end: 30, extract: 'back hurts', category: 'sx' },
        { start: 20, end: 30, extract: 'back hurts', category: 'urgent+hpi' },
        { start: 31, end: 43, extract: 'since Monday', category: 'duration' },
      ],
    },
  });
  await expect(page.getByText('Waiting for next message')).toBeVisible();
  const result = await completedResult(request, job);
  expect(result).toMatchObject({ type: 'message.annotation', data: { action: 'urgent+hpi' } });
});

test('bad input: a job without a slot specification shows the invalid-state text and can still be raised as an exception', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const job = await sendJob(request, {
    lastTurn: turn(),
    slot: { id: 'slot-x', code: 'x' },
  });
  await expect(
    page.getByText(
      'End and schedule an appointment or terminate. The conversation is in an invalid state.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeHidden();
  await raiseException(page);
  expect(await completedResult(request, job)).toMatchObject({
    type: 'message.annotation.exception',
    data: {
      action: 'exception',
      conversationId: 'c-1',
      messageId: 'm-1',
      slot: { id: 'slot-x', code: 'x' },
    },
  });
});
