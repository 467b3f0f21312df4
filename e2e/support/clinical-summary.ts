import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_KEY } from './assistant.ts';
import { say } from './exception-desk.ts';

const headers = { authorization: `Bearer ${E2E_API_KEY}` };

/**
 * The assistant's side: registers a conversation with a few messages and sends a summary job for
 * it whose first highlight, 'Sore throat', is coded as viral pharyngitis (for the reviewer to
 * correct). Returns the job's id.
 */
export async function sendSummaryJob(request: APIRequestContext, id: string): Promise<string> {
  const put = await request.put(`/api/v1/conversations/${id}`, {
    headers,
    data: {
      tenant: 'acme-clinic',
      consumer: { id: `patient-${id}`, name: { given: 'Tomas', family: 'Lindqvist' } },
    },
  });
  expect(put.status()).toBe(201);
  await say(request, id, `${id}-1`, 'OUT', 'What brings you in today?');
  await say(request, id, `${id}-2`, 'IN', 'My throat is really sore and I have a fever');
  const created = await request.post('/api/v1/jobs', {
    headers: { ...headers, 'idempotency-key': `${id}:summary` },
    data: {
      queue: 'hpi-summarisation',
      type: 'hpi.summarisation.job',
      tenant: 'acme-clinic',
      data: {
        conversationId: id,
        sourceName: 'e2e-assistant',
        sourceVersion: '1.0.0',
        document: {
          sections: [
            {
              id: 'history_of_present_illness',
              content: 'Sore throat for three days with fever.',
              annotations: [
                { id: 'a1', start: 0, end: 11, code: 'C0031350' },
                { id: 'a2', start: 32, end: 37, code: 'C0015967' },
              ],
            },
          ],
          codes: [
            {
              source: 'snomed',
              code: { system: 'UMLS', code: 'C0031350', value: 'viral pharyngitis' },
            },
            {
              source: 'snomed',
              code: { system: 'ICD-10', code: 'J02', value: 'viral pharyngitis' },
            },
            { source: 'snomed', code: { system: 'UMLS', code: 'C0015967', value: 'fever' } },
          ],
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Opens the screen and takes the next summary job (the one just sent: the queue was empty). */
export async function takeSummaryJob(page: Page): Promise<void> {
  await page.goto('/jobs/clinical-summary');
  await expect(page.getByText(/^There are [1-9]\d* jobs in the queue\.$/)).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('button', { name: 'Get next job' }).click();
  await expect(page.getByRole('heading', { name: 'Clinical Summary', exact: true })).toBeVisible();
}
