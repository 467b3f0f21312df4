import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_KEY } from './assistant.ts';

const headers = { authorization: `Bearer ${E2E_API_KEY}` };

/**
 * The assistant runs an intake, as a real upstream system does it: registers the conversation and
 * its patient, and records the questions and the patient's answers. Returns the conversation id.
 */
export async function runIntake(
  request: APIRequestContext,
  patient: { given: string; family: string },
  turns: readonly (readonly ['IN' | 'OUT', string])[],
): Promise<string> {
  const id = `e2e-intake-${Date.now().toString(36)}`;
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: { tenant: 'acme-clinic', consumer: { id: `patient-${id}`, name: patient } },
  });
  expect(put.status()).toBe(201);
  for (const [index, [direction, content]] of turns.entries()) {
    const said = await request.post(`/api/v1/conversations/${id}/messages`, {
      headers,
      data: { id: `${id}-${index}`, direction, content },
    });
    expect(said.ok()).toBe(true);
  }
  return id;
}

/** Finds a conversation by the patient's name on /conversations and opens it. */
export async function findAndOpen(page: Page, name: string): Promise<void> {
  await page.goto('/conversations');
  await page.getByRole('textbox', { name: 'Patient name' }).fill(name.split(' ')[0] ?? name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const found = page.getByRole('table', { name: 'Conversations found' });
  await found.getByRole('link', { name: `Open the conversation with ${name}` }).click();
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
}
