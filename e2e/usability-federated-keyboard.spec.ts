import { expect, test } from '@playwright/test';
import { cancelOpenJobs, completedResult, sendJob } from './support/federated.ts';
import { readTheStep, selectedText } from './support/keyboard.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * Issue 20 "proof": one federated job worked without the mouse (select, label, reword, submit),
 * asserting where the focus is after each step.
 */

const TUMMY = 'I have a tummy ache on the right side';
const job = (n: number) => ({
  quinnLastTurn: { content: 'How can we help today?' },
  lastTurn: {
    content: TUMMY,
    messageId: `m-kb${n}`,
    userId: `patient-kb${n}`,
    metadata: { conversationId: `c-kb${n}`, entities: [] },
  },
  slotSpecification: {
    code: 'current_complaint',
    short_description: 'current complaint',
    data_type: 'text',
    multiplicity: '1..1',
  },
  slot: { id: 'slot-cc', code: 'current_complaint' },
  job: { purpose: 'full' },
});

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

test('a federated job without the mouse: select, label, reword, submit, with the focus where the next key needs it', async ({
  page,
  request,
}) => {
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  const resume = page.getByRole('button', { name: 'Resume' });
  await resume.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Waiting for next message')).toBeVisible();

  const id = await sendJob(request, job(1));
  const message = page.getByRole('region', { name: 'Message' });
  // A new job: the message has the focus.
  await expect(message).toHaveText(TUMMY);
  await expect(message).toBeFocused();

  // Select: word by word to 'tummy', then Shift+Ctrl+Right twice; the menu opens on letting go.
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Control+ArrowRight');
  }
  await page.keyboard.press('ArrowRight');
  await page.keyboard.down('Shift');
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.up('Shift');
  expect(await selectedText(page)).toBe('tummy ache');
  const menu = page.getByRole('menu', { name: 'Categories' });
  await expect(menu).toBeVisible();
  await expect(message).toBeFocused();

  // Label: the digit shown beside 'Current complaint'; the focus stays on the message.
  const item = menu.getByRole('menuitem', { name: /Current complaint/ });
  await page.keyboard.press((await item.locator('kbd').textContent()) ?? '');
  await expect(menu).toBeHidden();
  await expect(
    page.getByRole('button', { name: 'Delete Current complaint: tummy ache' }),
  ).toBeVisible();
  await expect(message).toBeFocused();

  // Submit opens the reword step: its field has the focus, the patient's words selected in it.
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  const field = page.getByRole('textbox', { name: 'Reword sentence for tummy ache' });
  await expect(field).toBeFocused();
  expect(await selectedText(page)).toBe('tummy ache');

  // Reword: typing replaces the selection; the focus stays in the field.
  await page.keyboard.type('the pain in your tummy');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue(
    'When did the pain in your tummy start? Can you describe any symptoms that happen with tummy ache?',
  );

  // Submit: the job goes with its rewording.
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Waiting for next message')).toBeVisible();
  const result = await completedResult(request, id);
  expect(result.data).toMatchObject({
    entities: [{ extract: 'tummy ache', category: 'current_complaint' }],
    rewordings: [
      { entityExtract: 'tummy ache', text: expect.stringMatching(/^When did the pain/) },
    ],
  });

  // The next job takes the keyboard at once: its message has the focus.
  await sendJob(request, job(2));
  await expect(message).toHaveText(TUMMY);
  await expect(message).toBeFocused();
});
