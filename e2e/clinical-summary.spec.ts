import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { E2E_API_KEY } from './support/assistant.ts';
import { sendSummaryJob, takeSummaryJob } from './support/clinical-summary.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * The demo assistant, listening to the outbox; it starts no intake during the test (one every
 * 100 minutes), so it only hears what the reviewer sends. Its log is kept to read the receipt.
 */
function startAssistant(baseURL: string, log: string[]): ChildProcess {
  const root = path.resolve(import.meta.dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/assistant/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      LOOPDESK_URL: baseURL,
      LOOPDESK_API_KEY: E2E_API_KEY,
      ASSISTANT_CONVERSATIONS_PER_MINUTE: '0.01',
      ASSISTANT_MAX_CONVERSATIONS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n')));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

test('a reviewer takes a summary job, changes a code, sends it, and the assistant receives the note', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const log: string[] = [];
  const assistant = startAssistant(baseURL ?? 'http://127.0.0.1:8097', log);
  try {
    // First, the assistant is listening; it sends the note of Tomas's intake for review.
    await expect
      .poll(() => log.some((line) => line.includes('connected to')), { timeout: 30_000 })
      .toBe(true);
    // It reads the feed from its end before it listens.
    await page.waitForTimeout(2_000);
    const jobId = await sendSummaryJob(request, 'e2e-summary-1');

    // Second, Ann the annotator takes it: the note, its highlights and the transcript.
    await signInAs(page, 'annotator@loopdesk.test');
    await takeSummaryJob(page);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect(transcript.getByText('My throat is really sore and I have a fever')).toBeVisible();
    const wrong = page.getByRole('button', {
      name: /^Sore throat \(viral pharyngitis: UMLS C0031350 · ICD-10 J02\)/,
    });
    await expect(wrong).toBeVisible();

    // Third, she changes the code of 'Sore throat' with the typeahead: from 3 characters.
    await wrong.click();
    const picker = page.getByRole('combobox', { name: 'Change code' });
    await picker.fill('so');
    await expect(page.getByText('Type at least 3 characters')).toBeVisible();
    await picker.fill('sore throat');
    await page.getByRole('option', { name: /^sore throat UMLS C0242429/ }).click();
    await expect(
      page.getByRole('button', { name: /^Sore throat \(sore throat: UMLS C0242429\)/ }),
    ).toBeVisible();

    // Fourth, she sends the note to the physician; the screen is back at the queue.
    await page.getByRole('button', { name: 'Send clinical note to physician' }).click();
    await expect(page.getByText('Clinical note sent to the physician.')).toBeVisible();
    await expect(page.getByText(/^There are \d+ jobs in the queue\.$/)).toBeVisible();

    // Fifth, the assistant hears of it in the outbox, with her code, and records the receipt.
    await expect
      .poll(
        () =>
          log.find((line) =>
            line.includes(`clinical note received for the physician: job ${jobId}`),
          ),
        {
          timeout: 20_000,
        },
      )
      .toContain('reviewed by annotator@loopdesk.test; codes UMLS C0015967, UMLS C0242429');
  } finally {
    assistant.kill('SIGTERM');
  }
});
