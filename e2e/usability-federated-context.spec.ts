import { readTheStep } from './support/keyboard.ts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_API_KEY } from './support/assistant.ts';
import { annotatorWaiting, cancelOpenJobs, completedResult, sendJob } from './support/federated.ts';

/**
 * Issue 20 point 7, context: the panel names the patient and shows the earlier turns (collapsible,
 * the last question marked); verify-answered says what to do; the RPA step names the patient; the
 * idle state shows the queue size and the jobs done in this session; the footer stays at the
 * bottom of the window.
 */

const headers = { authorization: `Bearer ${E2E_API_KEY}` };

/** The assistant records Nora's conversation: three turns, the last its question. */
async function noraConversation(
  request: APIRequestContext,
): Promise<{ id: string; patient: string }> {
  const id = `e2e-context-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const patient = `patient-${id}`;
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: {
      tenant: 'acme-clinic',
      consumer: { id: patient, name: { given: 'Nora', family: 'Lindgren' } },
    },
  });
  expect(put.status()).toBe(201);
  for (const [messageId, direction, content] of [
    ['m1', 'OUT', 'Hello, what brings you here today?'],
    ['m2', 'IN', 'My throat is really sore.'],
    ['m3', 'OUT', 'When did it start?'],
    ['m4', 'IN', 'Since Tuesday, and I have a fever'],
  ] as const) {
    const posted = await request.post(`/api/v1/conversations/${id}/messages`, {
      headers,
      data: { id: messageId, direction, content },
    });
    expect(posted.ok()).toBe(true);
  }
  return { id, patient };
}

const onsetJob = (conversationId: string, userId: string, purpose = 'full') => ({
  quinnLastTurn: { content: 'When did it start?' },
  lastTurn: {
    content: 'Since Tuesday, and I have a fever',
    messageId: 'm4',
    userId,
    metadata: { conversationId, entities: [] },
  },
  slotSpecification: { code: 'onset', short_description: 'onset', data_type: 'text' },
  slot: { id: 'slot-onset', code: 'onset' },
  job: { purpose },
});

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

test('the panel names the patient and shows the earlier turns, collapsible, with the last question marked', async ({
  page,
  request,
}) => {
  const nora = await noraConversation(request);
  await annotatorWaiting(page);
  await sendJob(request, onsetJob(nora.id, nora.patient));
  const context = page.getByRole('complementary', { name: 'Context' });
  await expect(context).toContainText('Patient: Nora');
  const turns = context.getByRole('list', { name: 'Earlier in the conversation' });
  await expect(turns.getByRole('listitem')).toHaveCount(4);
  await expect(turns.getByRole('listitem').nth(0)).toContainText(
    'Hello, what brings you here today?',
  );
  // The last question is marked.
  const last = turns.locator('[aria-current="true"]');
  await expect(last).toContainText('When did it start?');
  await expect(last).toContainText('Last question');
  // Collapsible.
  const hide = context.getByRole('button', { name: /Hide earlier in the conversation/ });
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await hide.click();
  await expect(turns).toBeHidden();
  await context.getByRole('button', { name: /Show earlier in the conversation \(4\)/ }).click();
  await expect(turns).toBeVisible();
});

test('verify-answered says what to do', async ({ page, request }) => {
  const nora = await noraConversation(request);
  await annotatorWaiting(page);
  await sendJob(request, onsetJob(nora.id, nora.patient, 'verify-answered'));
  await expect(page.getByRole('heading', { name: 'Verify answered: onset' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText(
    "Does the patient's message answer the last question? If it does, Submit (Ctrl+Enter); if it does not, raise an Exception.",
  );
});

test('the RPA step names the patient', async ({ page, request }) => {
  const nora = await noraConversation(request);
  await annotatorWaiting(page);
  await sendJob(
    request,
    {
      portal: 'https://emr.example/patients/1',
      metadata: { xdhconvid: nora.id, xdhuserid: nora.patient },
      lastTurn: { userId: nora.patient, metadata: { conversationId: nora.id } },
    },
    'robot-process-automation.manual-step.job',
  );
  await expect(page.getByRole('heading', { name: 'RPA manual step needed.' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Job', exact: true })).toContainText(
    'For the patient Nora.',
  );
});

test('the idle state shows the queue size and the jobs done in this session; the footer is at the bottom of the window', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await annotatorWaiting(page);
  const counts = page.getByLabel('Queue and session');
  await expect(counts).toHaveText(
    'Jobs waiting in the federated queue: 0 · Jobs done this session: 0',
  );
  const nora = await noraConversation(request);
  const id = await sendJob(request, onsetJob(nora.id, nora.patient, 'verify-answered'));
  await expect(page.getByRole('heading', { name: 'Verify answered: onset' })).toBeVisible();
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  await completedResult(request, id);
  await expect(counts).toHaveText(
    'Jobs waiting in the federated queue: 0 · Jobs done this session: 1',
  );
  // The footer's bottom edge is the window's (less the page padding).
  const footer = page.locator('footer');
  const box = await footer.boundingBox();
  expect(box).not.toBeNull();
  expect(720 - ((box?.y ?? 0) + (box?.height ?? 0))).toBeLessThanOrEqual(24);
});
