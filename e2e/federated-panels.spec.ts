import { expect, test } from '@playwright/test';
import {
  annotate,
  annotatorWaiting,
  cancelOpenJobs,
  completedResult,
  selectWithMouse,
  sendJob,
} from './support/federated.ts';
import { readTheStep } from './support/keyboard.ts';

/**
 * The rules of spec 1 §5 that have no message, in Chromium's own selection: what a selection
 * becomes, what annotate-only hides and verify-answered starts without; and the priority job,
 * which comes on the technician's second socket (/ws/priority), worked from the keyboard.
 */

const TEXT = 'I feel rough\nand my  back hurts since Monday';
const turn = (entities: unknown[] = []) => ({
  content: TEXT,
  messageId: 'm-1',
  userId: 'patient-1',
  metadata: { conversationId: 'c-1', entities },
});
const job = (purpose: string, entities: unknown[] = []) => ({
  quinnLastTurn: { content: 'How long has it hurt?' },
  lastTurn: turn(entities),
  slotSpecification: { code: 'duration', short_description: 'duration', data_type: 'text' },
  slot: { id: 'slot-duration', code: 'duration' },
  job: { purpose },
});

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

test('a selection: leading spaces trimmed, one ending in a newline or partly overlapping ignored, a new drag inside the old one, offsets without labels', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const id = await sendJob(request, job('full'));
  const message = page.getByRole('region', { name: 'Message' });
  const menu = page.getByRole('menu', { name: 'Categories' });
  await expect(message).toBeFocused();

  // From the line start, Shift+Down selects the first line with its newline: ignored.
  await page.keyboard.down('Shift');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.up('Shift');
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('I feel rough\n');
  await expect(menu).toBeHidden();

  // A drag that starts on the spaces before 'back': the spaces are trimmed.
  await annotate(page, '  back hurts', 'Symptom');
  await expect(page.getByRole('button', { name: 'Delete Symptom: back hurts' })).toBeVisible();

  // Partly over 'back hurts' without enclosing it: ignored.
  await selectWithMouse(page, 'hurts since');
  await expect(menu).toBeHidden();

  // Selected, then closed with Escape: a drag begun inside that selection selects anew (it does
  // not drag the selected text), and the digit annotates the new selection.
  await selectWithMouse(page, 'since Monday');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await selectWithMouse(page, 'Monday');
  await expect(menu).toBeVisible();
  // Duration, the target slot, by the digit shown beside it.
  const duration = menu.getByRole('menuitem', { name: /Duration/ });
  await page.keyboard.press((await duration.locator('kbd').textContent()) ?? '');
  await expect(page.getByRole('button', { name: 'Delete Duration: Monday' })).toBeVisible();

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  // Offsets count the message only: the 'sx' label drawn after 'back hurts' is not counted.
  expect((await completedResult(request, id)).data.entities).toEqual([
    { start: 21, end: 31, extract: 'back hurts', category: 'sx' },
    { start: 38, end: 44, extract: 'Monday', category: 'duration' },
  ]);
});

test('annotate-only hides the symptom categories it names; verify-answered shows no menu and starts empty', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const found = [
    { start: 21, end: 31, extract: 'back hurts', category: 'sx' },
    { start: 21, end: 25, extract: 'back', category: 'location' },
    { start: 32, end: 44, extract: 'since Monday', category: 'onset' },
  ];
  let id = await sendJob(request, job('annotate-only', found));
  await expect(page.getByRole('heading', { name: 'Annotate purpose: duration' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete Location: back' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete (Symptom|Onset):/ })).toHaveCount(0);
  await annotate(page, 'since Monday', 'duration');
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  expect((await completedResult(request, id)).data).toMatchObject({
    action: 'suggest_annotations',
    entities: [
      { start: 21, end: 25, extract: 'back', category: 'location' },
      { start: 32, end: 44, extract: 'since Monday', category: 'duration' },
    ],
  });

  id = await sendJob(request, job('verify-answered', found));
  await expect(page.getByRole('heading', { name: 'Verify answered: duration' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await selectWithMouse(page, 'since Monday');
  await expect(page.getByRole('menu', { name: 'Categories' })).toBeHidden();
  // A submit key within 500 ms of a job appearing is ignored (issue 20): read it first.
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  expect((await completedResult(request, id)).data).toMatchObject({
    action: 'suggest_continue',
    entities: [],
    slot: { id: 'slot-duration', code: 'duration', type: 'text', value: null },
  });
});

test('a priority job comes on the priority socket; the first choice has the focus, an arrow and Ctrl+Enter answer it', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const id = await sendJob(
    request,
    {
      metadata: { xdhconvid: 'c-9' },
      priority: 'Which of these worries you most?',
      choices: [
        { id: 'c1', extract: 'repeat of my inhaler' },
        { id: 'c2', extract: 'a rash on my arm' },
      ],
    },
    'intent.hpi.priority.job',
    'priority',
  );
  await expect(
    page.getByRole('heading', { name: 'Select the highest priority complaint.' }),
  ).toBeVisible();
  await expect(page.getByText('Which of these worries you most?')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'repeat of my inhaler' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  expect(await completedResult(request, id)).toMatchObject({
    type: 'hpi.prioritised',
    data: { action: 'set_priority', conversationId: 'c-9', priority: 'c2' },
  });
  await expect(page.getByText('Waiting for next message')).toBeVisible();
});
