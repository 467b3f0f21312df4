import { expect, test, type WebSocketRoute } from '@playwright/test';
import { signInAs } from './support/sign-in.ts';

const DUPLICATE_SESSION_MESSAGE =
  'You already have a session open. Please close all sessions, or contact an administrator to force the termination of your sessions.';

test('a second tab of the same technician is closed with 1008: it says so and does not reconnect', async ({
  page,
  context,
}) => {
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  await expect(page.getByLabel('Connection status')).toHaveText('on');

  // Second, the same technician opens the screen in another tab.
  const second = await context.newPage();
  const sockets: string[] = [];
  second.on('websocket', (socket) => sockets.push(socket.url()));
  await second.goto('/jobs/federated');

  await expect(second.getByText(DUPLICATE_SESSION_MESSAGE)).toBeVisible();
  await expect(second.getByLabel('Connection status')).toHaveText('closed');
  // No reconnect: the one refused socket stays the only one.
  await second.waitForTimeout(2_000);
  expect(sockets.filter((url) => url.endsWith('/ws/federated'))).toHaveLength(1);
  await expect(second.getByLabel('Connection status')).toHaveText('closed');
  // The first tab keeps its session.
  await expect(page.getByLabel('Connection status')).toHaveText('on');
});

test('a socket closed abnormally says so and reconnects after 500 ms', async ({ page }) => {
  // The socket passes through to the real server; the first one is then cut from the server side.
  const connections: { at: number; page: WebSocketRoute; server: WebSocketRoute }[] = [];
  await page.routeWebSocket(/\/ws\/federated$/, (route) => {
    const server = route.connectToServer();
    connections.push({ at: Date.now(), page: route, server });
  });
  await signInAs(page, 'annotator@loopdesk.test');
  await page.goto('/jobs/federated');
  const status = page.getByLabel('Connection status');
  await expect(status).toHaveText('on');
  await expect.poll(() => connections.length).toBe(1);

  const cutAt = Date.now();
  await connections[0]?.server.close();
  await connections[0]?.page.close({ code: 1011, reason: 'The server hit an error.' });

  await expect(page.getByText('Websocket closed abnormally.')).toBeVisible();
  await expect.poll(() => connections.length, { timeout: 10_000 }).toBe(2);
  expect((connections[1]?.at ?? 0) - cutAt).toBeGreaterThanOrEqual(450);
  await expect(status).toHaveText('on');
});

test('an admin sees the technician session and closes it: the technician is told and not reconnected', async ({
  page,
  browser,
}) => {
  // First, Ann opens the federated screen in her own browser.
  const annContext = await browser.newContext();
  const ann = await annContext.newPage();
  try {
    await signInAs(ann, 'annotator@loopdesk.test');
    await ann.goto('/jobs/federated');
    await expect(ann.getByLabel('Connection status')).toHaveText('on');

    // Second, Ada opens session management and finds Ann's federated session.
    await signInAs(page, 'admin@loopdesk.test');
    await page.goto('/admin/session-management');
    const table = page.getByRole('table', { name: 'Technician sessions' });
    const close = table.getByRole('button', {
      name: 'Close the federated session of Ann Annotator',
    });
    await expect(close).toBeVisible();
    await close.click();
    const dialog = page.getByRole('dialog', { name: 'Close session' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByText('The session was closed.')).toBeVisible();

    // Ann's socket is closed on whichever node holds it; her portal says so and stays closed.
    await expect(ann.getByText('Your session was closed by an administrator.')).toBeVisible();
    await expect(ann.getByLabel('Connection status')).toHaveText('closed');
  } finally {
    await annContext.close();
  }
});
