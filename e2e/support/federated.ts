import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { assistant, E2E_API_KEY } from './assistant.ts';
import { signInAs } from './sign-in.ts';

/** Helpers of the federated workbench specs: the assistant's side, and a technician's hands. */

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const auth = { authorization: `Bearer ${E2E_API_KEY}` };

/** A job's outcome as the assistant reads it (`GET /api/v1/jobs/{id}`). */
export interface JobOutcome {
  state: string;
  result: { type: string; data: Record<string, unknown> } | null;
}

/** The assistant's view of one job. */
export async function jobOf(request: APIRequestContext, id: string): Promise<JobOutcome> {
  const response = await request.get(`/api/v1/jobs/${id}`, { headers: auth });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as JobOutcome;
}

/** Waits until the job is completed, and returns its result as the assistant receives it. */
export async function completedResult(
  request: APIRequestContext,
  id: string,
): Promise<{ type: string; data: Record<string, unknown> }> {
  await expect.poll(async () => (await jobOf(request, id)).state).toBe('completed');
  const { result } = await jobOf(request, id);
  if (!result) {
    throw new Error(`job ${id} completed without a result`);
  }
  return result;
}

/**
 * Cancels every job the assistant created that nobody finished, so that a spec starts with empty
 * queues whatever ran before it.
 */
export async function cancelOpenJobs(request: APIRequestContext): Promise<void> {
  const events = await assistant(request).events();
  const created = [...new Set(events.filter((e) => e.type === 'job.created').map((e) => e.jobId))];
  for (const id of created) {
    const { state } = await jobOf(request, id);
    if (state === 'queued' || state === 'assigned') {
      await request.post(`/api/v1/jobs/${id}/cancel`, { headers: auth });
    }
  }
}

/** Creates a federated (or priority) job as the assistant would, with a fresh idempotency key. */
export async function sendJob(
  request: APIRequestContext,
  data: Record<string, unknown>,
  type = 'message.annotation.job',
  queue: 'federated' | 'priority' = 'federated',
): Promise<string> {
  const { id } = await assistant(request).createJob(
    { queue, type, tenant: 'acme-clinic', data },
    `e2e-${type}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  return id;
}

/**
 * Drags the mouse across `phrase` inside the message, as a person selects it. The phrase may run
 * across highlights; the labels drawn after them are not message text and are skipped.
 */
export async function selectWithMouse(page: Page, phrase: string): Promise<void> {
  const message = page.getByRole('region', { name: 'Message' });
  const box = await message.evaluate((root, wanted) => {
    const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes: { node: Node; at: number }[] = [];
    let text = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('.annotation-chip')) {
        continue;
      }
      nodes.push({ node, at: text.length });
      text += node.textContent ?? '';
    }
    const start = text.indexOf(wanted);
    if (start < 0) {
      return null;
    }
    const end = start + wanted.length;
    const pointAt = (offset: number, isEnd: boolean) => {
      const found = [...nodes].reverse().find(({ at }) => (isEnd ? offset > at : offset >= at)) ?? {
        node: root,
        at: 0,
      };
      return { node: found.node, offset: offset - found.at };
    };
    const from = pointAt(start, false);
    const to = pointAt(end, true);
    const range = root.ownerDocument.createRange();
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    const rects = range.getClientRects();
    const first = rects[0];
    const last = rects[rects.length - 1];
    if (!first || !last) {
      return null;
    }
    return {
      left: first.left,
      y: first.top + first.height / 2,
      right: last.right,
      y2: last.top + last.height / 2,
    };
  }, phrase);
  if (!box) {
    throw new Error(`'${phrase}' is not in the message`);
  }
  await page.mouse.move(box.left + 1, box.y);
  await page.mouse.down();
  await page.mouse.move(box.right - 1, box.y2, { steps: 8 });
  await page.mouse.up();
}

/** Selects `phrase` and picks the menu entry labelled `label` with its digit (Space pages). */
export async function annotate(page: Page, phrase: string, label: string): Promise<void> {
  await selectWithMouse(page, phrase);
  const menu = page.getByRole('menu', { name: 'Categories' });
  await expect(menu).toBeVisible();
  for (let pageTurns = 0; pageTurns < 5; pageTurns++) {
    const item = menu.getByRole('menuitem').filter({ hasText: label }).first();
    if ((await item.count()) > 0) {
      const hotkey = (await item.locator('kbd').textContent()) ?? '';
      await page.keyboard.press(hotkey);
      await expect(menu).toBeHidden();
      return;
    }
    await page.keyboard.press('Space');
  }
  throw new Error(`'${label}' is not in the menu`);
}

/** Ann, signed in, on Federated Jobs, resumed and waiting for a job. */
export async function annotatorWaiting(page: Page): Promise<void> {
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByText('Waiting for next message')).toBeVisible();
}

/** The toast that says `text`. */
export const toast = (page: Page, text: string) =>
  page.getByRole('alert').filter({ hasText: text });

/** Raises the exception (it acts at once, docs/decisions.md issue 20), ending the held job. */
export async function raiseException(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Exception' }).click();
}

/** The demo assistant (apps/assistant) as a process of its own, talking to the server under test. */
export interface DemoAssistant {
  /** Its log lines so far. */
  readonly lines: string[];
  /** Waits for a log line matching `pattern` and returns its match. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

/** Starts the demo assistant with some of its scripted patients. */
export function startDemoAssistant(baseUrl: string, patients: string): DemoAssistant {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/assistant/src/main.ts'],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        LOOPDESK_URL: baseUrl,
        LOOPDESK_API_KEY: E2E_API_KEY,
        ASSISTANT_PATIENTS: patients,
        ASSISTANT_CONVERSATIONS_PER_MINUTE: '60',
        ASSISTANT_MAX_CONVERSATIONS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const collect = (chunk: Buffer) =>
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return {
    lines,
    async waitFor(pattern) {
      let match: RegExpMatchArray | null = null;
      await expect
        .poll(
          () => {
            match = lines.map((line) => line.match(pattern)).find((m) => m !== null) ?? null;
            return match !== null;
          },
          {
            timeout: 30_000,
            message: `the demo assistant never logged ${pattern}: ${lines.join(' | ')}`,
          },
        )
        .toBe(true);
      return match as unknown as RegExpMatchArray;
    },
    async stop() {
      if (child.exitCode !== null) {
        return;
      }
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A question of the portal, as the assistant reads it. */
export interface PortalQuestion {
  kind: string;
  tenant: string;
  body: Record<string, unknown>;
}

/**
 * Plays the assistant: reads the portal's questions (long poll) and answers those of `kind` with
 * `answer`; any other question gets "no answer" (a context menu then has no override). Returns the
 * first question of `kind` once answered.
 */
export async function answerQuestion(
  request: APIRequestContext,
  kind: string,
  answer: (question: PortalQuestion) => unknown,
): Promise<PortalQuestion> {
  for (let polls = 0; polls < 12; polls++) {
    const response = await request.get('/api/v1/requests?wait=5', { headers: auth });
    expect(response.ok(), await response.text()).toBe(true);
    const { requests } = (await response.json()) as {
      requests: (PortalQuestion & { id: string })[];
    };
    for (const question of requests) {
      const wanted = question.kind === kind;
      const answered = await request.post(`/api/v1/requests/${question.id}/answer`, {
        headers: auth,
        data: wanted ? { answer: answer(question) } : { error: 'not asked in this test' },
      });
      expect(answered.ok(), await answered.text()).toBe(true);
      if (wanted) {
        return question;
      }
    }
  }
  throw new Error(`the portal never asked the assistant a ${kind} question`);
}
