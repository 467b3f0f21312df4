import { expect, test, type Page } from '@playwright/test';
import { PORTAL_ROUTES, type PortalRoute } from '@loopdesk/contracts/portal-routes.ts';
import { E2E_API_KEY } from './support/assistant.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { findAndOpen, runIntake } from './support/conversations.ts';
import { expandAllGroups } from './support/drawer.ts';
import { sendSummaryJob, takeSummaryJob } from './support/clinical-summary.ts';
import { selectWithMouse, type DemoAssistant } from './support/federated.ts';
import { disclaimerDialog, signInAs } from './support/sign-in.ts';
import {
  closeExceptionConversation,
  closeFederatedJob,
  openAsyncTask,
  openExceptionConversation,
  openFederatedJob,
} from './support/work-screens.ts';

/**
 * axe-core over every screen of the portal, as a user with every role meets it (issue 20, Proof):
 * no serious or critical WCAG 2.2 AA finding. Each screen in a working state — the work screens
 * with a job, a conversation, a task; the test tools with results; the graph drawn. A screen added
 * later gets one line: `await expectNoSeriousAxeViolations(page, '<screen> with <state>')`.
 */

const EVERY_ROLE = 'lead@loopdesk.test';

/** A route's path with its parameters filled (the async task has its own test, with a task). */
const pathOf = (route: PortalRoute) =>
  route.path.replace(':pipelineId', '4').replace(/\/steps\/:step\/tasks\/:taskId$/, '');

/** Waits until the screen under `path` has loaded: its title in the top bar, no request pending. */
async function openScreen(page: Page, path: string, title: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('banner')).toContainText(title);
  await page.waitForLoadState('networkidle');
}

test('the sign-in page and the disclaimer', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login with GSuite' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the sign-in page');

  await signInAs(page, EVERY_ROLE, { agreeToDisclaimer: false });
  await expectNoSeriousAxeViolations(page, 'the disclaimer');
  await disclaimerDialog(page).getByRole('button', { name: 'Agree' }).click();
});

test('every route of the portal, for a user with every role', async ({ page }) => {
  // About 25 screens, each loaded afresh: some 100 s on a quiet machine.
  test.setTimeout(360_000);
  await signInAs(page, EVERY_ROLE);
  const routes = (PORTAL_ROUTES as readonly PortalRoute[]).filter(
    (r) =>
      r.id !== 'async-task' &&
      r.id !== 'data-preparation-job' &&
      // The Annotation Task and Review screens need a job: e2e/authoring.spec.ts checks them.
      r.id !== 'authoring-task' &&
      r.id !== 'authoring-review',
  );
  for (const route of routes) {
    await openScreen(page, pathOf(route), route.title);
    if (route.status === 'later') {
      await expect(page.getByText('This screen is not available yet.')).toBeVisible();
    }
    await expectNoSeriousAxeViolations(page, `${route.title} (${route.path})`);
  }

  // The drawer with every group open, the account menu, and a path that is no screen.
  await openScreen(page, '/', 'Dashboard');
  await expandAllGroups(page);
  await expectNoSeriousAxeViolations(page, 'the drawer with every group open');
  await page.getByRole('button', { name: 'Lee Lead', exact: true }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the account menu');
  await page.keyboard.press('Escape');
  // The bell's list of queues (the demo seeds async tasks, so it has some).
  await page
    .getByRole('banner')
    .getByRole('button', { name: /queue sizes|notifications/i })
    .click();
  await expect(page.getByRole('menu').or(page.getByRole('dialog'))).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the bell with its queues');
  await page.keyboard.press('Escape');
  await page.goto('/no/such/screen');
  await page.waitForLoadState('networkidle');
  await expectNoSeriousAxeViolations(page, 'a path that is no screen');
});

test('a screen the role may not open', async ({ page }) => {
  await signInAs(page, 'approver@loopdesk.test');
  await page.goto('/jobs/exception');
  await expect(page.getByText('You do not have access to this screen.')).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'a screen the role may not open');
});

test.describe('the federated workbench', () => {
  let demo: DemoAssistant | undefined;
  test.afterEach(async ({ request }) => {
    await closeFederatedJob(request, demo);
    demo = undefined;
  });

  test('with a job open, its category menu, a highlight and the reword step', async ({
    page,
    baseURL,
  }) => {
    await signInAs(page, EVERY_ROLE);
    await page.goto('/jobs/federated');
    await expect(page.getByText('Paused click resume to continue')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the federated workbench, paused');

    demo = await openFederatedJob(page, baseURL ?? '');
    await expectNoSeriousAxeViolations(page, 'the federated workbench with a job open');

    await selectWithMouse(page, 'pounding headache');
    const menu = page.getByRole('menu', { name: 'Categories' });
    await expect(menu).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the federated category menu');
    await page.keyboard.press('1');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: /^Delete .*pounding headache$/ })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the federated workbench with a highlight');

    // A chief complaint is reworded before the real submit (spec 1 §4).
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await expect(page.getByRole('textbox', { name: /^Reword sentence for/ })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the federated reword step');
  });
});

test('the exception desk with a conversation', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signInAs(page, EVERY_ROLE);
  await openExceptionConversation(page, request);
  await expectNoSeriousAxeViolations(page, 'the exception desk with a conversation');
  await page.getByLabel('Manual input (USE WITH CAUTION)').fill('Hello Grace, I am a nurse.');
  await expectNoSeriousAxeViolations(page, 'the exception desk with a reply typed');
  const patient = page.getByRole('region', { name: 'Patient' });
  await patient.getByRole('button', { name: 'End and schedule appointment' }).click();
  const appointment = page.getByRole('dialog', { name: /^Schedule an appointment/ });
  await expect(appointment).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the appointment dialog');
  await appointment.getByRole('button', { name: 'Cancel' }).click();
  await expect(appointment).toBeHidden();
  await patient.getByRole('button', { name: 'Terminate encounter' }).click();
  const terminate = page.getByRole('dialog', { name: 'Terminate encounter' });
  await expect(terminate).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the terminate dialog');
  await terminate.getByRole('button', { name: 'Cancel' }).click();
  await expect(terminate).toBeHidden();
  await closeExceptionConversation(page);
  await expectNoSeriousAxeViolations(page, 'the exception desk waiting for a conversation');
});

test('the clinical summary screen with a job, its code panel, then sent', async ({
  page,
  request,
}) => {
  await signInAs(page, EVERY_ROLE);
  await sendSummaryJob(request, 'e2e-a11y-summary');
  await takeSummaryJob(page);
  await expect(page.getByRole('list', { name: 'Transcript' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the clinical summary with a job');
  await page.getByRole('button', { name: /^fever \(/ }).click();
  await expect(page.getByRole('combobox', { name: 'Change code' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the clinical summary code panel');
  // Sent, so that no held job is left for the tests that follow.
  await page.getByRole('button', { name: 'Send clinical note to physician' }).click();
  await expect(page.getByText('Clinical note sent to the physician.')).toBeVisible();
});

test('the async dashboard and a task screen', async ({ page }) => {
  await signInAs(page, EVERY_ROLE);
  await openScreen(page, '/jobs/async', 'Asynchronous Jobs - Dashboard');
  await expectNoSeriousAxeViolations(page, 'the async dashboard');
  await openAsyncTask(page);
  await page.waitForLoadState('networkidle');
  await expectNoSeriousAxeViolations(page, 'an async text annotation task');
  await page.getByRole('main').getByRole('button', { name: 'Discard' }).click();
  const discard = page.getByRole('dialog', { name: 'Discard this job' });
  await expect(discard).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the discard dialog of an async task');
  await discard.getByRole('button', { name: 'Cancel' }).click();
  await expect(discard).toBeHidden();
});

test('the test tools with results', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, EVERY_ROLE);

  await openScreen(page, '/test/entity-recognition', 'Entity Recognition');
  await page
    .getByRole('textbox', { name: 'Input Text' })
    .fill('I have had a sore throat and a fever since yesterday, no cough.');
  await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();
  const result = page.getByRole('region', { name: 'Named Entity Recognition Result' });
  await expect(result.getByText('sore throat', { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'entity recognition with its result');

  await openScreen(page, '/test/differential-diagnosis', 'Differential Diagnosis');
  await page.getByRole('button', { name: 'ADD OBSERVATION' }).click();
  const field = page
    .getByRole('listitem', { name: 'Observation 1' })
    .getByRole('combobox', { name: /Observation/ });
  await field.fill('pain in my lower right');
  await page.getByRole('option', { name: 'right lower abdominal pain', exact: true }).click();
  await page.getByRole('button', { name: 'PREDICT' }).click();
  await expect(
    page.getByRole('table', { name: 'Differential Diagnosis Prediction' }).getByRole('row').nth(1),
  ).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'differential diagnosis with a prediction');

  await openScreen(page, '/test/clinical-inference', 'Clinical Inference');
  await page
    .getByRole('textbox', { name: 'Input Text' })
    .fill('I have pain in my lower right tummy and a fever. No cough.');
  await page.getByRole('button', { name: 'SUBMIT TEXT' }).click();
  await expect(page.getByRole('list', { name: 'Selected observations' })).toBeVisible();
  await page.getByRole('button', { name: 'PREDICT' }).click();
  await expect(
    page.getByRole('table', { name: 'Differential Diagnosis Prediction' }).getByRole('row').nth(1),
  ).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'clinical inference with a prediction');
});

test('push broadcast under review, and a telehealth deep link with its QR code', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, EVERY_ROLE);
  await openScreen(page, '/communication/push', 'Push Broadcast');
  await page.getByRole('textbox', { name: 'Title' }).fill('Clinic closed on Friday');
  await page
    .getByRole('textbox', { name: 'Content' })
    .fill('The clinic is closed this Friday for staff training.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const review = page.getByRole('dialog', { name: 'Review push notification' });
  await expect(review).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the push review dialog');
  await review.getByRole('button', { name: 'Cancel' }).click();

  // A conversation to link to, registered as the assistant would.
  await request.put('/api/v1/conversations/a11y-deep-link', {
    headers: { authorization: `Bearer ${E2E_API_KEY}` },
    data: { tenant: 'acme-clinic', consumer: { id: 'a11y-patient', name: { given: 'Ivy' } } },
  });
  await openScreen(page, '/deep-link-generator', 'Deep Link Generator');
  await page.getByRole('radio', { name: 'A conversation' }).check();
  await page.getByRole('textbox', { name: 'Conversation id' }).fill('a11y-deep-link');
  await page.getByRole('button', { name: 'Generate link' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the link' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the deep link generator with a link');
});

test('the conversation viewer with a conversation', async ({ page, request }) => {
  test.setTimeout(90_000);
  await runIntake(request, { given: 'Axel', family: 'Moorhen' }, [
    ['OUT', 'What brings you here today?'],
    ['IN', 'I have a sore throat and a fever since Monday.'],
  ]);
  await signInAs(page, EVERY_ROLE);
  await findAndOpen(page, 'Axel Moorhen');
  await expect(
    page.getByRole('region', { name: 'Network Data' }).getByRole('img', { name: /^Acuity/ }),
  ).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the conversation viewer with a conversation');
});

test('the knowledge-graph inspector with a graph', async ({ page }) => {
  await signInAs(page, EVERY_ROLE);
  await openScreen(page, '/knowledge/inspect/graph', 'Inspect Knowledge Graph');
  const condition = page.getByRole('combobox', { name: 'Condition' });
  await condition.fill('appendicitis');
  await page.getByRole('option', { name: 'appendicitis', exact: true }).click();
  await expect(page.getByRole('figure', { name: 'Knowledge graph of appendicitis' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the knowledge-graph inspector with a graph');
});

test('the analytics dashboard with its charts', async ({ page }) => {
  await signInAs(page, EVERY_ROLE);
  await page.goto('/');
  const frame = page.frameLocator('iframe[title="Analytics dashboard"]');
  await expect(frame.getByRole('region', { name: 'Per technician' })).toBeVisible({
    timeout: 20_000,
  });
  await expectNoSeriousAxeViolations(page, 'the analytics dashboard with its charts');
});

test('a data preparation job with its document and form', async ({ page }) => {
  await signInAs(page, EVERY_ROLE);
  await openScreen(page, '/jobs/data-preparation', 'Data Preparation Jobs');
  await page
    .getByRole('list', { name: 'Registered documents' })
    .getByRole('button')
    .first()
    .click();
  await expect(page.getByRole('heading', { name: /^Data Preparation Job: / })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expectNoSeriousAxeViolations(page, 'a data preparation job');
});
