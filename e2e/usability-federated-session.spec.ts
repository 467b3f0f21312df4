import { readTheStep } from './support/keyboard.ts';
import { expect, test } from '@playwright/test';
import {
  annotatorWaiting,
  cancelOpenJobs,
  completedResult,
  sendJob,
  toast,
} from './support/federated.ts';
import { signInAs } from './support/sign-in.ts';

/**
 * Issue 20, federated workbench: a job's error toast closes with its job (5), a second tab keeps
 * the spec's message on screen without offering to reconnect (8), and the focus ring (3).
 */

const DUPLICATE_SESSION_MESSAGE =
  'You already have a session open. Please close all sessions, or contact an administrator to force the termination of your sessions.';

const priorityJob = (conversationId: string) => ({
  metadata: { xdhconvid: conversationId },
  priority: 'Which of these worries you most?',
  choices: [
    { id: 'c1', extract: 'repeat of my inhaler' },
    { id: 'c2', extract: 'a rash on my arm' },
  ],
});

test.beforeEach(async ({ request }) => {
  await cancelOpenJobs(request);
});
test.afterEach(async ({ request }) => {
  await cancelOpenJobs(request);
});

test("a job's error toast closes when the next job replaces it", async ({ page, request }) => {
  await annotatorWaiting(page);
  const first = await sendJob(request, priorityJob('c-21'), 'intent.hpi.priority.job', 'priority');
  await sendJob(request, priorityJob('c-22'), 'intent.hpi.priority.job', 'priority');
  await expect(page.getByRole('radio', { name: 'repeat of my inhaler' })).toBeFocused();

  // Ctrl+Enter with no choice, once the step is read: the job's validation message.
  await readTheStep(page);
  await page.keyboard.press('Control+Enter');
  const message = toast(page, 'Please select a complaint to continue.');
  await expect(message).toBeVisible();
  // The pointer rests on the toast (as a reader's does), which holds its 6-second timer.
  await message.hover();

  // The technician picks a choice and submits: the next job replaces this one.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Control+Enter');
  await completedResult(request, first);
  await expect(page.getByRole('radio', { name: 'repeat of my inhaler' })).toBeFocused();
  await expect(page.getByRole('radio', { name: 'repeat of my inhaler' })).not.toBeChecked();
  // Its message went with it.
  await expect(message).toBeHidden();
});

test('a second tab: the spec message stays as a banner, and neither Reconnect nor Resume is offered', async ({
  page,
  context,
}) => {
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  await expect(page.getByLabel('Connection status')).toHaveText('on');

  const second = await context.newPage();
  await second.goto('/jobs/federated');
  const banner = second.getByRole('alert').filter({ hasText: DUPLICATE_SESSION_MESSAGE });
  await expect(banner).toBeVisible();
  await expect(second.getByLabel('Connection status')).toHaveText('closed');
  await expect(second.getByRole('button', { name: 'Reconnect' })).toHaveCount(0);
  await expect(second.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  // Past a toast's 6 seconds the message is still there.
  await second.waitForTimeout(6_500);
  await expect(banner).toBeVisible();
  await expect(second.getByText(DUPLICATE_SESSION_MESSAGE)).toHaveCount(1);
});

/** The relative luminance of a CSS rgb()/rgba() colour (WCAG 2.2). */
function luminance(css: string): number {
  const [r = 0, g = 0, b = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

test('a focused button shows a focus ring: 2 px or more, 3:1 against what surrounds it', async ({
  page,
}) => {
  await annotatorWaiting(page);
  const pause = page.getByRole('button', { name: 'Pause' });
  // From the keyboard (the mouse clicked Resume, which became Pause): Tab round to Pause.
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await pause.evaluate((el) => el === document.activeElement)) {
      break;
    }
  }
  await expect(pause).toBeFocused();
  await expect(pause).toHaveClass(/Mui-focusVisible/);
  const ring = await pause.evaluate((el) => {
    const style = getComputedStyle(el);
    // What surrounds the button: the first ancestor with a background of its own.
    let around = el.parentElement;
    let background = 'rgb(0, 0, 0)';
    while (around) {
      const colour = getComputedStyle(around).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') {
        background = colour;
        break;
      }
      around = around.parentElement;
    }
    return {
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
      colour: style.outlineColor,
      background,
    };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  expect(contrast(ring.colour, ring.background)).toBeGreaterThanOrEqual(3);

  // The same ring on another kind of control: the fullscreen icon button.
  await page.keyboard.press('Shift+Tab');
  const focused = page.locator(':focus');
  const width = await focused.evaluate((el) => parseFloat(getComputedStyle(el).outlineWidth));
  expect(width).toBeGreaterThanOrEqual(2);
});
