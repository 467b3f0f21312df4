import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  endConversations,
  handOver,
  openDesk,
  say,
  showConversation,
  transcriptOf,
} from './support/exception-desk.ts';

/**
 * Issue 20, exception desk (points 10–16): the traps a reviewer met in a working day at the desk,
 * each written from its steps.
 */

const composerOf = (page: Page) => page.getByLabel('Manual input (USE WITH CAUTION)');
const patientOf = (page: Page) => page.getByRole('region', { name: 'Patient' });
const railOf = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found ?? { x: 0, y: 0, width: 0, height: 0 };
}

const stamp = () => `${Date.now()}-${Math.floor(Math.random() * 1000)}`;

/** The patients each test hands over: ended after it, so that the next test starts clean. */
let patients: string[] = [];
test.beforeEach(() => {
  patients = [];
});
test.afterEach(async ({ page }) => {
  await endConversations(page, patients);
});

test('10: the composer sits under the transcript; the left pane says why the conversation is here and what the reviewer may do', async ({
  page,
  request,
}) => {
  const id = `e2e-u10-${stamp()}`;
  patients.push('Ada Lovelace');
  await handOver(request, {
    id,
    given: 'Ada',
    family: 'Lovelace',
    messages: [
      ['OUT', 'What brings you in today?'],
      ['IN', 'Can I talk to a nurse about my tablets?'],
    ],
    reason: 'The patient asked for a human',
  });
  await openDesk(page);
  await showConversation(page, 'Ada Lovelace');
  const transcript = transcriptOf(page);
  await expect(transcript.getByText('Can I talk to a nurse about my tablets?')).toBeVisible();

  // The composer is right under the transcript, in its column.
  const composer = composerOf(page);
  const list = await box(transcript);
  const input = await box(composer);
  expect(input.y).toBeGreaterThanOrEqual(list.y + list.height - 1);
  expect(input.y - (list.y + list.height)).toBeLessThan(120);
  expect(input.x).toBeLessThan(list.x + list.width);
  expect(input.x + input.width).toBeGreaterThan(list.x);

  // The left pane says why the conversation is here and what the reviewer may do with it.
  const why = page
    .getByRole('region', { name: 'Conversation' })
    .getByRole('region', { name: 'Why this conversation is here' });
  await expect(why.getByText('The patient asked for a human')).toBeVisible();
  await expect(why.getByText(/Original job/)).toBeVisible();
  await expect(why.getByText(/hand it back to the assistant/i)).toBeVisible();

  // Enter still sends, unchanged.
  await composer.fill('Of course, Ada. Which tablets?');
  await composer.press('Enter');
  await expect(composer).toHaveValue('');
  await expect(transcript.getByText('Of course, Ada. Which tablets?')).toBeVisible();
});

test('11: Hand back to assistant confirms like Terminate and ends with a toast; after Pause the composer is visibly disabled', async ({
  page,
  request,
}) => {
  const id = `e2e-u11-${stamp()}`;
  patients.push('Grace Hopper');
  await handOver(request, {
    id,
    given: 'Grace',
    family: 'Hopper',
    messages: [['IN', 'I would like a person please.']],
    reason: 'The patient asked for a human',
  });
  await openDesk(page);
  const patient = patientOf(page);
  await showConversation(page, 'Grace Hopper');

  // Hand back asks first; Cancel keeps the conversation.
  await patient.getByRole('button', { name: 'Hand back to assistant' }).click();
  const confirm = page.getByRole('dialog', { name: 'Hand back to assistant' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(patient.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();

  // Confirming hands it back and says so.
  await patient.getByRole('button', { name: 'Hand back to assistant' }).click();
  await confirm.getByRole('button', { name: 'Hand back' }).click();
  await expect(page.getByText('Grace Hopper is back with the assistant.')).toBeVisible();
  await expect(page.getByText('Waiting for a conversation to be allocated.')).toBeVisible();

  // After Pause the composer is still on screen, disabled, and says why.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('Paused click resume to continue')).toBeVisible();
  const composer = composerOf(page);
  await expect(composer).toBeVisible();
  await expect(composer).toBeDisabled();
  await expect(page.getByText('Paused: press Resume to reply.')).toBeVisible();
});

test('12: the queue rail shows each patient’s name, a live waiting time, the reason and unread status with a legend', async ({
  page,
  request,
}) => {
  await page.clock.install();
  const first = `e2e-u12a-${stamp()}`;
  const second = `e2e-u12b-${stamp()}`;
  patients.push('Hedy Lamarr');
  await handOver(request, {
    id: first,
    given: 'Hedy',
    family: 'Lamarr',
    messages: [['IN', 'Is a nurse there?']],
    reason: 'The patient asked for a human',
  });
  patients.push('Alan Turing');
  await handOver(request, {
    id: second,
    given: 'Alan',
    family: 'Turing',
    messages: [['IN', 'My prescription ran out.']],
    reason: 'Repeat prescription request',
  });
  await openDesk(page);
  const rail = railOf(page);
  await expect(rail.getByText('Hedy Lamarr')).toBeVisible({ timeout: 30_000 });
  await expect(rail.getByText('Alan Turing')).toBeVisible();
  await expect(rail.getByText('Repeat prescription request')).toBeVisible();
  const alan = rail.getByRole('button', { name: /^Alan Turing/ });
  await expect(alan).toContainText('Unread');
  await expect(rail.getByText(/Waiting (less than a minute|\d+ min)/).first()).toBeVisible();
  // A legend says what the marks mean.
  const legend = page.getByRole('note', { name: 'Legend' });
  await expect(legend).toContainText('Unread');
  await expect(legend).toContainText('Red flag');

  // The waiting time runs on while the reviewer looks at the screen (20 minutes later; hours
  // read 'Waiting 2 h 05 min', see utils/waiting.test.ts).
  await page.clock.fastForward('20:00');
  await expect(alan).toContainText(/Waiting 2\d min/);
});

test('13: patient, assistant and staff messages each have their own look and label', async ({
  page,
  request,
}) => {
  const id = `e2e-u13-${stamp()}`;
  patients.push('Rosalind Franklin');
  await handOver(request, {
    id,
    given: 'Rosalind',
    family: 'Franklin',
    messages: [
      ['OUT', 'What brings you in today?'],
      ['IN', 'I have a rash on my arm.'],
    ],
    reason: 'The patient asked for a human',
  });
  await openDesk(page);
  await showConversation(page, 'Rosalind Franklin');
  const transcript = transcriptOf(page);
  await expect(transcript.getByText('I have a rash on my arm.')).toBeVisible();
  await composerOf(page).fill('How long have you had it?');
  await composerOf(page).press('Enter');
  await expect(transcript.getByText('How long have you had it?')).toBeVisible();

  const item = (text: string) => transcript.getByRole('listitem').filter({ hasText: text });
  const patient = item('I have a rash on my arm.');
  const assistant = item('What brings you in today?');
  const staff = item('How long have you had it?');
  await expect(patient).toContainText('Patient');
  await expect(assistant).toContainText('Assistant');
  await expect(staff).toContainText('Staff');
  const look = (locator: Locator) =>
    locator.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.backgroundColor}|${style.borderColor}`;
    });
  const looks = new Set([await look(patient), await look(assistant), await look(staff)]);
  expect(looks.size).toBe(3);
});

test('14: at 1280×720 the transcript keeps most of the height and the three actions fit one row', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const id = `e2e-u14-${stamp()}`;
  patients.push('Katherine Johnson');
  await handOver(request, {
    id,
    given: 'Katherine',
    family: 'Johnson',
    messages: Array.from(
      { length: 12 },
      (_, i) => [i % 2 ? 'IN' : 'OUT', `Message number ${i + 1} of the conversation.`] as const,
    ),
    reason: 'The patient asked for a human',
  });
  await openDesk(page);
  const patient = patientOf(page);
  await showConversation(page, 'Katherine Johnson');
  const actions = await Promise.all(
    ['End and schedule appointment', 'Terminate encounter', 'Hand back to assistant'].map((name) =>
      box(patient.getByRole('button', { name })),
    ),
  );
  const tops = new Set(actions.map((a) => Math.round(a.y)));
  expect(tops.size).toBe(1);
  const list = await box(transcriptOf(page));
  expect(list.height).toBeGreaterThanOrEqual(720 * 0.5);
});

test('15: a patient message with a high-acuity observation is marked in the transcript and on the rail', async ({
  page,
  request,
}) => {
  const calm = `e2e-u15a-${stamp()}`;
  const urgent = `e2e-u15b-${stamp()}`;
  patients.push('Mary Somerville');
  await handOver(request, {
    id: calm,
    given: 'Mary',
    family: 'Somerville',
    messages: [['IN', 'I have a headache and I want to talk to someone.']],
    reason: 'The patient asked for a human',
  });
  patients.push('Emmy Noether');
  await handOver(request, {
    id: urgent,
    given: 'Emmy',
    family: 'Noether',
    messages: [['IN', 'Can I speak to a nurse?']],
    reason: 'The patient asked for a human',
  });
  await openDesk(page);
  const rail = railOf(page);
  await expect(rail.getByText('Emmy Noether')).toBeVisible({ timeout: 30_000 });
  const emmy = rail.getByRole('button', { name: /^Emmy Noether/ });
  const mary = rail.getByRole('button', { name: /^Mary Somerville/ });
  await expect(emmy).not.toContainText('Red flag');

  // Emmy writes of chest pain and a weak arm: her item on the rail is marked at once.
  await say(request, urgent, `${urgent}-2`, 'IN', 'Now I have chest pain and arm weakness.');
  await expect(emmy).toContainText('Red flag');
  await expect(mary).not.toContainText('Red flag');

  // In her transcript, the message is marked with what was found.
  await emmy.click();
  const message = transcriptOf(page)
    .getByRole('listitem')
    .filter({ hasText: 'Now I have chest pain and arm weakness.' });
  await expect(message).toContainText('Red flag: chest pain');
  await expect(message).toContainText('weakness on one side of the body');
  await expect(
    transcriptOf(page).getByRole('listitem').filter({ hasText: 'Can I speak to a nurse?' }),
  ).not.toContainText('Red flag');

  // A reload (the queue's answer) keeps the mark.
  await page.reload();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(railOf(page).getByRole('button', { name: /^Emmy Noether/ })).toContainText(
    'Red flag',
    { timeout: 30_000 },
  );
});
