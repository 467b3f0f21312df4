import { expect, test, type Page } from '@playwright/test';
import { assistant } from './support/assistant.ts';
import {
  annotate,
  annotatorWaiting,
  cancelOpenJobs,
  completedResult,
  jobOf,
  selectWithMouse,
  sendJob,
} from './support/federated.ts';
import { readTheStep, selectedText } from './support/keyboard.ts';

/**
 * Issue 20, federated workbench: steady hotkeys (1), no reword sent unread (2), focus that stays
 * (3), one keyboard model (4) and human words (6), each written from the trap's steps.
 */

const ids = (n: number) => ({ messageId: `m-k${n}`, userId: `patient-k${n}` });
const turn = (n: number, content: string, entities: unknown[] = []) => ({
  content,
  ...ids(n),
  metadata: { conversationId: `c-k${n}`, entities },
});
const slotJob = (
  n: number,
  content: string,
  slot: { code: string; short_description: string; data_type?: string; multiplicity?: string },
  extra: Record<string, unknown> = {},
) => ({
  quinnLastTurn: { content: 'What brings you in today?' },
  lastTurn: turn(n, content),
  slotSpecification: { data_type: 'text', multiplicity: '1..1', ...slot },
  slot: { id: `slot-${slot.code}`, code: slot.code },
  job: { purpose: 'full' },
  ...extra,
});
const CHIEF = {
  code: 'chief_complaints',
  short_description: 'chief complaint',
  multiplicity: '1..*',
};
const HEADACHE = "I've had a pounding headache since yesterday morning";
const THROAT = 'My throat is really sore and it hurts to swallow';
const TUMMY = 'I have a tummy ache on the right side';

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

const categories = (page: Page) => page.getByRole('menu', { name: 'Categories' });

/** Every page of the open menu as 'digit label' lines, turning pages with Space. */
async function menuListing(page: Page): Promise<string[][]> {
  const menu = categories(page);
  await expect(menu).toBeVisible();
  const footer = (await menu.locator('xpath=..').locator('p').last().textContent()) ?? '';
  const count = Number(/of (\d+)/.exec(footer)?.[1] ?? '1');
  const pages: string[][] = [];
  for (let index = 0; index < count; index++) {
    const items = menu.getByRole('menuitem');
    pages.push(
      await items.evaluateAll((nodes) =>
        nodes.map((node) => {
          const key = node.querySelector('kbd')?.textContent ?? '';
          const label = node.querySelector('kbd + span')?.textContent ?? '';
          return `${key} ${label}`;
        }),
      ),
    );
    await page.keyboard.press('Space');
  }
  return pages;
}

test('steady hotkeys: two chief complaint jobs offering the same entries give them the same digits, in one order', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  // The headache names onset and associated symptoms as related slots; the sore throat none.
  const headache = await sendJob(
    request,
    slotJob(1, HEADACHE, CHIEF, {
      relatedSlots: [
        { id: 'slot-onset', code: 'onset' },
        { id: 'slot-associated_sx', code: 'associated_sx' },
      ],
    }),
  );
  await selectWithMouse(page, 'pounding headache');
  const first = await menuListing(page);
  await page.keyboard.press('Escape');
  await assistant(request).cancelJob(headache);
  await expect(page.getByText('Waiting for next message')).toBeVisible();

  await sendJob(request, slotJob(2, THROAT, CHIEF));
  await selectWithMouse(page, 'throat is really sore');
  const second = await menuListing(page);

  const digitOf = (pages: string[][], label: string) =>
    pages.flatMap((items, index) =>
      items.filter((item) => item.endsWith(` ${label}`)).map((item) => `${index + 1}:${item}`),
    );
  expect(digitOf(second, 'Onset')).toEqual(digitOf(first, 'Onset'));
  expect(digitOf(second, 'Associated symptom')).toEqual(digitOf(first, 'Associated symptom'));
  expect(second).toEqual(first);
});

test('no reword sent unread: Ctrl+Enter twice quickly submits the annotation only; the extract is selected, typing replaces it', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const id = await sendJob(
    request,
    slotJob(3, TUMMY, { code: 'current_complaint', short_description: 'current complaint' }),
  );
  await annotate(page, 'tummy ache', 'Current complaint');
  // The annotation was read; then Ctrl+Enter twice quickly.
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  await page.keyboard.press('Control+Enter');

  const field = page.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
  await expect(field).toBeFocused();
  // The spec's prompt words stay; the patient's words in them are selected, so typing replaces them.
  await expect(field).toHaveValue(
    'When did tummy ache start? Can you describe any symptoms that happen with tummy ache?',
  );
  expect(await selectedText(page)).toBe('tummy ache');
  await page.keyboard.type('the pain in your tummy');
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');

  const result = await completedResult(request, id);
  expect(result.data.rewordings).toEqual([
    {
      entityExtract: 'tummy ache',
      category: 'current_complaint',
      text: 'When did the pain in your tummy start? Can you describe any symptoms that happen with tummy ache?',
    },
  ]);
});

test('no reword sent unread: a held Ctrl+Enter (key repeat) does not submit the reword step', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const id = await sendJob(
    request,
    slotJob(4, TUMMY, { code: 'current_complaint', short_description: 'current complaint' }),
  );
  await annotate(page, 'tummy ache', 'Current complaint');
  await readTheStep(page);
  await page.keyboard.down('Control');
  await page.keyboard.down('Enter');
  const field = page.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
  await expect(field).toBeFocused();
  await readTheStep(page);
  // The key is still held: the browser repeats it.
  await page.keyboard.down('Enter');
  await page.keyboard.up('Enter');
  await page.keyboard.up('Control');
  await expect(field).toBeVisible();
  expect((await jobOf(request, id)).state).not.toBe('completed');
  await page.keyboard.type('your tummy ache');
  await page.keyboard.press('Control+Enter');
  const result = await completedResult(request, id);
  expect(result.data.rewordings).toMatchObject([
    { text: expect.stringMatching(/^When did your tummy ache start\?/) as unknown },
  ]);
});

test('focus that stays, and undo: deleting highlights from the keyboard moves focus to the next one, then to the message; Ctrl+Z brings them back, Clear too', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const text = 'Sharp pain in my back since Monday';
  await sendJob(
    request,
    slotJob(
      5,
      text,
      { code: 'duration', short_description: 'duration' },
      {
        lastTurn: turn(5, text, [
          { start: 0, end: 10, extract: 'Sharp pain', category: 'sx' },
          { start: 17, end: 21, extract: 'back', category: 'location' },
        ]),
      },
    ),
  );
  const message = page.getByRole('region', { name: 'Message' });
  await expect(message).toBeFocused();
  const sharp = page.getByRole('button', { name: 'Delete Symptom: Sharp pain' });
  const back = page.getByRole('button', { name: 'Delete Location: back' });
  await page.keyboard.press('Tab');
  await expect(sharp).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(sharp).toHaveCount(0);
  await expect(back).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(back).toHaveCount(0);
  await expect(message).toBeFocused();

  // Ctrl+Z undoes the deletes, one at a time.
  await page.keyboard.press('Control+z');
  await expect(back).toBeVisible();
  await expect(sharp).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(sharp).toBeVisible();

  // Clear removes every highlight; Ctrl+Z brings them all back.
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await message.focus();
  await page.keyboard.press('Control+z');
  await expect(sharp).toBeVisible();
  await expect(back).toBeVisible();
});

test('one keyboard model: digits pick the priority choices and the rephrase options', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  const priority = await sendJob(
    request,
    {
      metadata: { xdhconvid: 'c-k6' },
      priority: 'Which of these worries you most?',
      choices: [
        { id: 'c1', extract: 'repeat of my inhaler' },
        { id: 'c2', extract: 'a rash on my arm' },
      ],
    },
    'intent.hpi.priority.job',
    'priority',
  );
  const rash = page.getByRole('radio', { name: 'a rash on my arm' });
  await expect(rash).toBeVisible();
  await expect(page.getByText('2', { exact: true })).toBeVisible();
  await page.keyboard.press('2');
  await expect(rash).toBeChecked();
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  expect((await completedResult(request, priority)).data).toMatchObject({ priority: 'c2' });

  await sendJob(
    request,
    slotJob(
      7,
      "I'm not sure, maybe a 7",
      { code: 'pain_score', short_description: 'pain score' },
      {
        slotUtteranceSpecification: {
          options: [
            ['q1', 'Would you call the pain mild, moderate or severe?'],
            ['q2', 'Does the pain stop you doing your usual activities?'],
          ],
        },
      },
    ),
  );
  await page.getByRole('button', { name: 'Exception' }).click();
  await expect(page.getByRole('heading', { name: 'Rephrase previous question.' })).toBeVisible();
  await page.keyboard.press('2');
  await expect(
    page.getByRole('radio', { name: 'Does the pain stop you doing your usual activities?' }),
  ).toBeChecked();
  await page.keyboard.press('1');
  await expect(
    page.getByRole('radio', { name: 'Would you call the pain mild, moderate or severe?' }),
  ).toBeChecked();
});

test('one keyboard model: Endorse, Deny and Unsure show their hotkeys and answer to them', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  // No purpose: the older screen, whose boolean slot has the endorses/denies toggle.
  const id = await sendJob(
    request,
    slotJob(
      8,
      "No, I haven't had a fever",
      { code: 'fever', short_description: 'fever', data_type: 'boolean', multiplicity: '0..1' },
      { job: undefined },
    ),
  );
  const endorse = page.getByRole('button', { name: 'Endorse', exact: true });
  const deny = page.getByRole('button', { name: 'Deny', exact: true });
  const unsure = page.getByRole('button', { name: 'Unsure', exact: true });
  await expect(endorse).toContainText('1');
  await expect(deny).toContainText('2');
  await expect(unsure).toContainText('3');
  await expect(deny).toHaveAttribute('aria-keyshortcuts', '2');
  await page.keyboard.press('2');
  await expect(deny).toHaveAttribute('aria-pressed', 'true');
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  expect((await completedResult(request, id)).data).toMatchObject({
    slot: { code: 'fever', value: 'deny' },
  });
});

test('one keyboard model: Escape in the Intents submenu goes back one level, and the submenu says where it is', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  await sendJob(request, slotJob(9, HEADACHE, CHIEF));
  await selectWithMouse(page, 'pounding headache');
  const menu = categories(page);
  const intents = menu.getByRole('menuitem', { name: /Intents/ });
  for (let turns = 0; turns < 3 && (await intents.count()) === 0; turns++) {
    await page.keyboard.press('Space');
  }
  await page.keyboard.press((await intents.locator('kbd').textContent()) ?? '');
  await expect(page.getByRole('navigation', { name: 'Menu level' })).toHaveText(/Intents/);
  await expect(menu.getByRole('menuitem', { name: /Repeat prescription/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: /Chief complaint/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});

test('human words: menus and highlights show readable names in sentence case, not slot codes', async ({
  page,
  request,
}) => {
  await annotatorWaiting(page);
  await sendJob(
    request,
    slotJob(10, HEADACHE, CHIEF, {
      relatedSlots: [{ id: 'slot-associated_sx', code: 'associated_sx' }],
    }),
  );
  await selectWithMouse(page, 'pounding headache');
  const menu = categories(page);
  await expect(menu.getByRole('menuitem').filter({ hasText: 'chief_complaints' })).toHaveCount(0);
  await expect(menu.getByRole('menuitem', { name: /Chief complaint/ })).toBeVisible();
  await page.keyboard.press(
    (await menu
      .getByRole('menuitem', { name: /Chief complaint/ })
      .locator('kbd')
      .textContent()) ?? '',
  );
  await expect(
    page.getByRole('button', { name: 'Delete Chief complaint: pounding headache' }),
  ).toBeVisible();
  await annotate(page, 'since yesterday morning', 'Associated symptom');
  await expect(
    page.getByRole('button', { name: 'Delete Associated symptom: since yesterday morning' }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Message' })).not.toContainText(/_/);
});
