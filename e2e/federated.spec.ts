import { expect, test } from '@playwright/test';
import {
  cancelOpenJobs,
  completedResult,
  selectWithMouse,
  startDemoAssistant,
  type DemoAssistant,
} from './support/federated.ts';
import { signInAs } from './support/sign-in.ts';
import { readTheStep } from './support/keyboard.ts';

const COMPLAINT = "I've had a pounding headache since yesterday morning";

let demo: DemoAssistant | undefined;

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await demo?.stop();
  demo = undefined;
  await cancelOpenJobs(request);
});

test('an annotator resumes, takes the demo assistant’s job, annotates it with the mouse and a digit, and the assistant receives exactly that', async ({
  page,
  request,
  baseURL,
}) => {
  // First, Ann signs in and opens Federated Jobs: the session starts paused.
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  await expect(page.getByText('Paused click resume to continue')).toBeVisible();
  await expect(page.getByLabel('Connection status')).toHaveText('on');

  // Second, the demo assistant (its own process, on the integration API only) starts Maya
  // Okafor's intake: its first job asks for her chief complaint.
  demo = startDemoAssistant(baseURL ?? '', 'headache');
  const [, jobId] = await demo.waitFor(/chief complaint → job ([0-9a-f-]{36}) \(federated\)/);

  // Third, Ann resumes and receives it. (Her selection waits for the intent's context menu and the
  // conversation's context: text re-rendered under a fresh selection loses it, a known race.)
  const menuLoaded = page.waitForResponse((r) => r.url().includes('/_context_menu'));
  const contextLoaded = page.waitForResponse((r) => /\/jobs\/[^/]+\/_context/.test(r.url()));
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('heading', { name: 'Annotate chief complaint' })).toBeVisible();
  // In the panel's header (the context above it lists the turns too, issue 20).
  await expect(
    page.getByRole('region', { name: 'Job', exact: true }).getByText('What brings you in today?'),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Message' })).toHaveText(COMPLAINT);
  await Promise.all([menuLoaded, contextLoaded]);

  // She drags the mouse over 'pounding headache'; the menu opens below it; '1' picks the chief
  // complaint (the categories keep one fixed order, issue 20: chief complaint is always 1).
  await selectWithMouse(page, 'pounding headache');
  const menu = page.getByRole('menu', { name: 'Categories' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toHaveText(/^1Chief complaint/);
  // The intent of the job ('hpi') has a context menu from the assistant: its 'Details' submenu
  // replaces the fixed categories, and its derived 'patient_description' joins the related ones.
  await expect(menu.getByRole('menuitem', { name: /Details/ })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: /Patient description/ })).toBeVisible();
  await page.keyboard.press('1');
  await expect(menu).toBeHidden();
  await expect(
    page.getByRole('button', { name: 'Delete Chief complaint: pounding headache' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();

  // A chief complaint is reworded first (spec 1 §4), then the real submit.
  const reword = page.getByRole('textbox', { name: 'Reword sentence for pounding headache' });
  await expect(reword).toBeFocused();
  await reword.fill('When did the pounding headache start?');
  await page.getByRole('button', { name: 'Submit' }).click();

  // The assistant receives exactly her entity (start, end, extract, category), the slot and the
  // action.
  const result = await completedResult(request, jobId ?? '');
  expect(result.type).toBe('message.annotation');
  expect(result.data).toMatchObject({
    action: 'answer',
    entities: [{ start: 11, end: 28, extract: 'pounding headache', category: 'chief_complaints' }],
    slot: { id: 'slot-chief_complaints', type: 'text', code: 'chief_complaints', value: null },
    rewordings: [
      {
        entityExtract: 'pounding headache',
        category: 'chief_complaints',
        text: 'When did the pounding headache start?',
      },
    ],
  });
  expect(result.data.entities).toHaveLength(1);

  // The demo assistant read it: its next question is worded with what Ann annotated.
  await demo.waitFor(/onset → job [0-9a-f-]{36}/);
  // In the panel's header (the context above it lists the turns too, issue 20).
  await expect(
    page
      .getByRole('region', { name: 'Job', exact: true })
      .getByText('When did your pounding headache start?'),
  ).toBeVisible();
});

test('every action works from the keyboard: the caret, Shift+arrows, a digit, Ctrl+Enter and the ? overlay', async ({
  page,
  request,
  baseURL,
}) => {
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  demo = startDemoAssistant(baseURL ?? '', 'headache');
  const [, jobId] = await demo.waitFor(/chief complaint → job ([0-9a-f-]{36}) \(federated\)/);

  // Resume from the keyboard: Tab to the button, Enter.
  const resume = page.getByRole('button', { name: 'Resume' });
  await resume.focus();
  await page.keyboard.press('Enter');
  const message = page.getByRole('region', { name: 'Message' });
  await expect(message).toBeFocused();

  // '?' lists the keys; Escape closes the list.
  await page.keyboard.press('?');
  const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(keys.getByText('Shift + arrow keys')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(keys).toBeHidden();
  await message.focus();

  // The caret starts at the message start: three words on, one character, then Shift+Ctrl+Right
  // twice selects 'pounding headache'; the menu opens when Shift is let go.
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Control+ArrowRight');
  }
  await page.keyboard.press('ArrowRight');
  await page.keyboard.down('Shift');
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.up('Shift');
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('pounding headache');
  await expect(page.getByRole('menu', { name: 'Categories' })).toBeVisible();

  // '1' annotates; Ctrl+Enter submits; the reword field has the focus and Ctrl+Enter submits it
  // (each step read first: a submit key within 500 ms of a step appearing is ignored, issue 20).
  await page.keyboard.press('1');
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('textbox', { name: /^Reword sentence for/ })).toBeFocused();
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');

  const result = await completedResult(request, jobId ?? '');
  expect(result.data.entities).toEqual([
    { start: 11, end: 28, extract: 'pounding headache', category: 'chief_complaints' },
  ]);
});
