import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_KEY } from './assistant.ts';
import { cancelOpenJobs, startDemoAssistant, type DemoAssistant } from './federated.ts';

/**
 * The three work screens brought to a working state, as a user meets them: the federated
 * workbench with a job open, the exception desk with a conversation, an async task taken from the
 * dashboard. Shared by the accessibility sweep (e2e/accessibility.spec.ts) and the screenshots of
 * docs/screens (e2e/work-screens.screens.ts). The caller signs in first, as a user who may open
 * the screen.
 */

const headers = { authorization: `Bearer ${E2E_API_KEY}` };

/**
 * Federated Jobs with the demo assistant's first job for its headache patient open. Returns the
 * assistant (stop it when done) — its job is cancelled by `closeFederatedJob`.
 */
export async function openFederatedJob(page: Page, baseURL: string): Promise<DemoAssistant> {
  const demo = startDemoAssistant(baseURL, 'headache');
  await demo.waitFor(/chief complaint → job ([0-9a-f-]{36}) \(federated\)/);
  await page.goto('/jobs/federated');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('heading', { name: 'Annotate chief complaint' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Message' })).toContainText('headache');
  return demo;
}

/** Stops the demo assistant and cancels whatever job is left, so later specs start empty. */
export async function closeFederatedJob(
  request: APIRequestContext,
  demo: DemoAssistant | undefined,
): Promise<void> {
  await demo?.stop();
  await cancelOpenJobs(request);
}

/** The patient of the exception desk's conversation. */
export const EXCEPTION_PATIENT = { given: 'Grace', family: 'Lindqvist' } as const;

/** A conversation the assistant hands over: the intake so far, then the patient asks for a human. */
const EXCEPTION_TURNS = [
  ['OUT', 'Hi Grace, I am the clinic assistant. What brings you in today?'],
  ['IN', 'I have had a tight feeling in my chest since this morning.'],
  ['OUT', 'I am sorry to hear that. When did the tight feeling in your chest start?'],
  ['IN', 'Around 7am, after breakfast. It comes and goes.'],
  ['OUT', 'Does the feeling spread anywhere, such as your arm, jaw or back?'],
  ['IN', 'Sometimes my left arm feels heavy. Can I talk to a real person, please?'],
] as const;

/**
 * The exception desk with a conversation on screen: the assistant registers Grace, sends the
 * intake so far and hands her over; the signed-in reviewer resumes and receives her. Returns the
 * conversation's id.
 */
export async function openExceptionConversation(
  page: Page,
  request: APIRequestContext,
): Promise<string> {
  const id = `e2e-desk-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: {
      tenant: 'acme-clinic',
      consumer: { id: `patient-${id}`, name: EXCEPTION_PATIENT },
    },
  });
  expect(put.status(), await put.text()).toBe(201);
  for (const [index, [direction, content]] of EXCEPTION_TURNS.entries()) {
    const said = await request.post(`/api/v1/conversations/${id}/messages`, {
      headers,
      data: { id: `${id}-${index + 1}`, direction, content },
    });
    expect(said.ok(), await said.text()).toBe(true);
  }
  const handover = await request.post(`/api/v1/conversations/${id}/handover`, {
    headers,
    data: { reason: 'The patient asked for a human' },
  });
  expect(handover.status(), await handover.text()).toBe(200);

  await page.goto('/jobs/exception');
  await page.getByRole('button', { name: 'Resume' }).click();
  const name = `${EXCEPTION_PATIENT.given} ${EXCEPTION_PATIENT.family}`;
  await expect(
    page.getByRole('region', { name: 'Patient' }).getByRole('heading', { name }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByRole('list', { name: 'Transcript' }).getByText(/Can I talk to a real person/),
  ).toBeVisible();
  return id;
}

/** Ends the conversation on screen (Terminate encounter), so that nobody else receives it. */
export async function closeExceptionConversation(page: Page): Promise<void> {
  await page
    .getByRole('region', { name: 'Patient' })
    .getByRole('button', { name: 'Terminate encounter' })
    .click();
  await page
    .getByRole('dialog', { name: 'Terminate encounter' })
    .getByRole('button', { name: 'Terminate' })
    .click();
  await expect(page.getByText('Waiting for a conversation to be allocated.')).toBeVisible();
}

/**
 * The async dashboard, then the next task of a pipeline's step taken with its Take Next Job button
 * (the demo seeds two tasks in every step). `step` is the step's name as its card shows it, in any
 * capitalisation. The task stays held by the signed-in user.
 */
export async function openAsyncTask(
  page: Page,
  pipeline = 'Text annotation',
  step = 'annotate',
): Promise<void> {
  await page.goto('/jobs/async');
  const card = page
    .getByRole('region', { name: pipeline })
    .getByRole('article', { name: new RegExp(`^${step}$`, 'i') });
  await card.getByRole('button', { name: 'Take Next Job' }).click();
  await expect(page).toHaveURL(/\/jobs\/async\/pipelines\/\d+\/steps\/[a-z_]+\/tasks\//);
  await expect(page.getByRole('main').getByRole('button', { name: 'Publish' })).toBeVisible();
}
