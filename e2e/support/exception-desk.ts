import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E_API_KEY } from './assistant.ts';
import { signInAs } from './sign-in.ts';

const headers = { authorization: `Bearer ${E2E_API_KEY}` };

export interface HandedOver {
  id: string;
  given: string;
  family: string;
  /** Messages before the handover: [direction, content]. */
  messages: readonly (readonly ['IN' | 'OUT', string])[];
  reason: string;
}

/**
 * The assistant's side, as a real upstream system would do it: registers the conversation and
 * its patient, records the messages, and hands the conversation to the exception desk.
 */
export async function handOver(request: APIRequestContext, conversation: HandedOver) {
  const { id, given, family, messages, reason } = conversation;
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: { tenant: 'acme-clinic', consumer: { id: `patient-${id}`, name: { given, family } } },
  });
  expect(put.status()).toBe(201);
  for (const [index, [direction, content]] of messages.entries()) {
    await say(request, id, `${id}-${index}`, direction, content);
  }
  const handover = await request.post(`/api/v1/conversations/${id}/handover`, {
    headers,
    data: { reason },
  });
  expect(handover.status()).toBe(200);
}

/** A message recorded by the assistant in a conversation (IN: the patient wrote). */
export async function say(
  request: APIRequestContext,
  id: string,
  messageId: string,
  direction: 'IN' | 'OUT',
  content: string,
) {
  const response = await request.post(`/api/v1/conversations/${id}/messages`, {
    headers,
    data: { id: messageId, direction, content },
  });
  expect(response.ok()).toBe(true);
}

/** Opens the Exception Jobs screen as the medical reviewer and resumes. */
export async function openDesk(page: Page): Promise<void> {
  await signInAs(page, 'medical@loopdesk.test');
  await page.goto('/jobs/exception');
  await expect(page.getByText('Paused click resume to continue')).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
}

/** Puts a held conversation on screen from the queue rail (others may be held before it). */
export async function showConversation(page: Page, name: string): Promise<void> {
  const item = page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('button', { name: new RegExp(`^${name}`) });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await item.click();
  await expect(
    page.getByRole('region', { name: 'Patient' }).getByRole('heading', { name, exact: true }),
  ).toBeVisible();
}

export const transcriptOf = (page: Page): Locator => page.getByRole('list', { name: 'Transcript' });

/**
 * Ends the conversations of these patients that the reviewer still holds (after a test), so
 * that the next test starts with none: resumes if paused, then terminates each from the rail.
 */
export async function endConversations(page: Page, names: readonly string[]): Promise<void> {
  if (names.length === 0) {
    return;
  }
  const resume = page.getByRole('button', { name: 'Resume' });
  if (await resume.isVisible()) {
    await resume.click();
  }
  const rail = page.getByRole('navigation', { name: 'Conversations' });
  for (const name of names) {
    const item = rail.getByRole('button', { name: new RegExp(`^${name}`) });
    // Handed back or ended by the test: not on the rail.
    if (
      !(await item.isVisible()) &&
      (await expect(item)
        .toBeVisible({ timeout: 5_000 })
        .then(
          () => false,
          () => true,
        ))
    ) {
      continue;
    }
    await item.click();
    const patient = page.getByRole('region', { name: 'Patient' });
    await expect(patient.getByRole('heading', { name, exact: true })).toBeVisible();
    await patient.getByRole('button', { name: 'Terminate encounter' }).click();
    await page
      .getByRole('dialog', { name: 'Terminate encounter' })
      .getByRole('button', { name: 'Terminate' })
      .click();
    await expect(item).toBeHidden();
  }
}
