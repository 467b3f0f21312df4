import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { assistant } from './support/assistant.ts';
import { navigation } from './support/drawer.ts';
import { accessTokenOf, accountButton, disclaimerDialog, signInAs } from './support/sign-in.ts';

interface PortalConfig {
  environment: string;
  helpCenterUrl: string;
  syntheticTestCaseUrl: string;
  termsUrl: string;
}

/** The top bar colours of spec 1 §2 Shell, as the browser computes them. */
const BAR_COLOURS: Record<string, string> = {
  staging: 'rgb(21, 101, 192)',
  test: 'rgb(46, 125, 50)',
  localhost: 'rgb(198, 40, 40)',
  production: 'rgb(48, 48, 48)',
};

const BELL_QUEUES = [
  { queue: 'federated', label: 'Federated Job Queue', path: '/jobs/federated' },
  { queue: 'exceptions', label: 'Exceptions Queue', path: '/jobs/exception' },
  { queue: 'hpi-summarisation', label: 'Summary Jobs', path: '/jobs/clinical-summary' },
] as const;

async function portalConfig(page: Page): Promise<PortalConfig> {
  const response = await page.request.get('/portal-config');
  expect(response.status()).toBe(200);
  return (await response.json()) as PortalConfig;
}

/** The queue sizes the server gives a signed-in user (the page's cookie buys a token). */
async function queueSizes(page: Page): Promise<Record<string, number>> {
  const accessToken = await accessTokenOf(page);
  const sizes: Record<string, number> = {};
  for (const { queue } of BELL_QUEUES) {
    const response = await page.request.get(`/internal/queues/${queue}/_size`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    sizes[queue] = ((await response.json()) as { size: number }).size;
  }
  return sizes;
}

test('the shell: a 256 px drawer the menu button toggles, the version, the screen title, the environment colour and the dark theme', async ({
  page,
}) => {
  const config = await portalConfig(page);
  await signInAs(page, 'lead@loopdesk.test');
  const bar = page.getByRole('banner');
  const nav = navigation(page);

  // The drawer: 256 px wide, the version id at its top, Jobs open and the other groups closed.
  const drawer = page.locator('.MuiDrawer-paper');
  expect((await drawer.boundingBox())?.width).toBe(256);
  await expect(nav.getByText(/^Version \S+$/)).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Jobs' })).toHaveAttribute('aria-expanded', 'true');
  for (const group of ['Test', 'Conversations', 'KG Workbench', 'Admin', 'Sysadmin']) {
    await expect(nav.getByRole('button', { name: group, exact: true })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  }

  // The title is 'Dashboard' until a screen sets its own.
  const title = bar.getByRole('heading', { level: 1 });
  await expect(title).toHaveText('Dashboard');
  await nav.getByRole('link', { name: 'Federated', exact: true }).click();
  await expect(title).toHaveText('Federated Jobs');

  // Colour by environment, on a dark theme.
  await expect(bar).toHaveCSS('background-color', BAR_COLOURS[config.environment] ?? '');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');

  // The menu button hides and shows the drawer.
  const menu = bar.getByRole('button', { name: 'Navigation menu' });
  await menu.click();
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(nav).toBeVisible();

  // The synthetic test case and help centre icons: links when configured, disabled otherwise.
  for (const [name, url] of [
    ['Create a synthetic test case', config.syntheticTestCaseUrl],
    ['Help center', config.helpCenterUrl],
  ] as const) {
    if (url) {
      await expect(bar.getByRole('link', { name })).toHaveAttribute('href', url);
    } else {
      await expect(bar.getByRole('button', { name })).toHaveAttribute('aria-disabled', 'true');
    }
  }

  // The account button: avatar and display name.
  const account = accountButton(page, 'lead@loopdesk.test');
  await expect(account).toBeVisible();
  await expect(account.getByText('L', { exact: true })).toBeVisible();
});

test('the bell counts the three queues every 5 s, links each, says unknown when a size fails, and sounds while work waits', async ({
  page,
  request,
}) => {
  // Count the alert tones the page plays.
  await page.addInitScript(() => {
    const scope = window as unknown as { alertTones: number; AudioContext: typeof AudioContext };
    scope.alertTones = 0;
    const Original = scope.AudioContext;
    scope.AudioContext = class extends Original {
      override createOscillator(): OscillatorNode {
        scope.alertTones += 1;
        return super.createOscillator();
      }
    };
  });
  const polls: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/internal/queues/federated/_size')) {
      polls.push(Date.now());
    }
  });
  const tones = () => page.evaluate(() => (window as unknown as { alertTones: number }).alertTones);

  // Every role: the spec's bell exactly (issue 20 #23 fits the bell to narrower roles).
  await signInAs(page, 'lead@loopdesk.test');
  const created: string[] = [];
  const loopdesk = assistant(request);
  try {
    // The assistant sends two federated jobs: the badge sums the three queues within a poll.
    for (const n of [1, 2]) {
      const job = await loopdesk.createJob(
        {
          queue: 'federated',
          type: 'message.annotation.job',
          tenant: 'acme-clinic',
          data: { lastTurn: { content: `bell test ${n}` } },
        },
        `bell-${randomUUID()}`,
      );
      created.push(job.id);
    }
    // Sizes are counted at most once a second per node: wait until the count includes them.
    let sizes: Record<string, number> = {};
    await expect
      .poll(async () => {
        sizes = await queueSizes(page);
        return sizes.federated;
      })
      .toBeGreaterThanOrEqual(2);
    const total = BELL_QUEUES.reduce((sum, { queue }) => sum + (sizes[queue] ?? 0), 0);
    const bell = page.getByRole('button', { name: `Queue sizes: ${total}` });
    await expect(bell).toBeVisible({ timeout: 12_000 });
    await expect(bell).toContainText(String(total));

    // The federated queue holds work: the alert sounds.
    await expect.poll(tones, { timeout: 10_000 }).toBeGreaterThan(0);

    // The menu lists each queue with its size and links to its screen.
    await bell.click();
    for (const { queue, label, path } of BELL_QUEUES) {
      const entry = page.getByRole('menuitem', { name: `${sizes[queue] ?? 0} ${label}` });
      await expect(entry).toHaveAttribute('href', path);
    }
    await page.getByRole('menuitem', { name: /Federated Job Queue$/ }).click();
    await expect(page).toHaveURL('/jobs/federated');

    // Polled every 5 s.
    await expect.poll(() => polls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const gaps = polls.slice(1).map((at, i) => at - (polls[i] ?? 0));
    expect(Math.min(...gaps.slice(-2))).toBeGreaterThan(4_000);

    // A size the server does not give shows as 'unknown' (spec 1 §8).
    await page.route('**/internal/queues/exceptions/_size', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":"Internal Server Error","message":"x"}',
      }),
    );
    const unknown = page.getByRole('button', { name: 'Queue sizes: unknown' });
    await expect(unknown).toBeVisible({ timeout: 12_000 });
    await expect(unknown).toContainText('?');
    await unknown.click();
    await expect(page.getByRole('menuitem', { name: 'unknown Exceptions Queue' })).toBeVisible();
    await page.keyboard.press('Escape');
  } finally {
    for (const id of created) {
      await loopdesk.cancelJob(id);
    }
  }
});

test('the disclaimer after sign-in links the Terms of Use; only Agree closes it, and it stays agreed', async ({
  page,
}) => {
  const config = await portalConfig(page);
  await signInAs(page, 'experimental@loopdesk.test', { agreeToDisclaimer: false });
  const dialog = disclaimerDialog(page);
  if (config.termsUrl) {
    await expect(dialog.getByRole('link', { name: 'Terms of Use' })).toHaveAttribute(
      'href',
      config.termsUrl,
    );
  } else {
    await expect(dialog).toContainText('Terms of Use');
  }

  // Neither a click outside it nor Escape closes it.
  await page.mouse.click(5, 5);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();

  await dialog.getByRole('button', { name: 'Agree' }).click();
  await expect(dialog).toBeHidden();
  await expect(accountButton(page, 'experimental@loopdesk.test')).toBeVisible();

  await page.reload();
  await expect(accountButton(page, 'experimental@loopdesk.test')).toBeVisible();
  await expect(dialog).toBeHidden();
});
