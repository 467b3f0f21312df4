import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { E2E_API_KEY } from './support/assistant.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * The demo assistant as `npm start` runs it, but with no intake in the time of the test (one a
 * hundred minutes): here it only plays the demo patients of direct messaging. Resolves once it has
 * registered them.
 */
async function startAssistant(baseURL: string): Promise<ChildProcess> {
  const root = path.resolve(import.meta.dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/assistant/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      LOOPDESK_URL: baseURL,
      LOOPDESK_API_KEY: E2E_API_KEY,
      ASSISTANT_CONVERSATIONS_PER_MINUTE: '0.01',
      ASSISTANT_MAX_CONVERSATIONS: '1',
      ASSISTANT_PATIENT_REPLY_MS: '300',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the demo assistant did not start')), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      if (chunk.toString().includes('connected to')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}

/** Archives Sam's open thread, if one is left (a failed run), through the screen. */
async function archiveSamsThread(page: Page): Promise<void> {
  await page.goto('/communication/direct');
  const sam = page
    .getByRole('list', { name: 'Open threads' })
    .getByRole('button', { name: /Sam Rivera/ });
  await expect(
    page.getByRole('list', { name: 'Open threads' }).or(page.getByText(/^No open threads/)),
  ).toBeVisible();
  if ((await sam.count()) === 0) {
    return;
  }
  await sam.click();
  await page.getByRole('button', { name: 'Archive' }).click();
  await page
    .getByRole('dialog', { name: 'Archive thread' })
    .getByRole('button', { name: 'Archive' })
    .click();
  await expect(sam).toHaveCount(0);
}

test('a medical user messages a demo patient, the demo assistant answers, the reply shows unread, archiving removes the thread', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const assistant = await startAssistant(baseURL ?? 'http://127.0.0.1:8097');
  try {
    await signInAs(page, 'medical@loopdesk.test');
    await archiveSamsThread(page);
    await page.goto('/communication/direct');
    await expect(page.getByRole('banner')).toContainText('Direct Messaging');

    // First, Meera starts a thread for the demo patient Sam by email.
    const form = page.getByRole('form', { name: 'New thread' });
    await form.getByLabel('Customer email').fill('sam.rivera@demo-patient.test');
    await form.getByLabel('First message').fill('Hello Sam, your test results are in.');
    await form.getByRole('button', { name: 'Start thread' }).click();
    const threads = page.getByRole('list', { name: 'Open threads' });
    await expect(threads.getByRole('button', { name: /Sam Rivera/ })).toBeVisible();
    const messages = page.getByRole('list', { name: 'Messages' });
    await expect(messages).toContainText('Hello Sam, your test results are in.');

    // Second, the demo assistant delivers it and Sam answers: the reply shows without a reload,
    // unread in the list.
    await expect(messages).toContainText('this is Sam (demo patient)', { timeout: 20_000 });
    await expect(threads.getByText('1 unread')).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'direct messaging with a thread open');

    // Selecting the thread marks it read.
    await threads.getByRole('button', { name: /Sam Rivera/ }).click();
    await expect(threads.getByText('1 unread')).toBeHidden();

    // Enter sends the trimmed text.
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('  See you on Monday.  ');
    await box.press('Enter');
    await expect(messages).toContainText('See you on Monday.');
    await expect(box).toHaveValue('');

    // A second thread for Sam is refused with the spec's message.
    await form.getByLabel('Customer email').fill('sam.rivera@demo-patient.test');
    await form.getByLabel('First message').fill('Another thread');
    await form.getByRole('button', { name: 'Start thread' }).click();
    await expect(
      page.getByText('There are one or more open messaging threads. Please close it to continue.'),
    ).toBeVisible();

    // Third, Meera archives the thread: it leaves the list.
    await page.getByRole('button', { name: 'Archive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive thread' });
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await expect(page.getByText('Thread with Sam Rivera archived.')).toBeVisible();
    await expect(page.getByText('No open threads. Start one for a customer above.')).toBeVisible();
  } finally {
    assistant.kill('SIGTERM');
    await archiveSamsThread(page).catch(() => undefined);
  }
});
