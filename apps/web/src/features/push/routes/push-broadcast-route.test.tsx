import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PUSH_MESSAGES } from '@loopdesk/contracts/notifications.ts';
import { errorAnswer, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 45_000 });

const MEERA = makeUser(['medical'], { id: 'user-meera', email: 'meera@example.com' });
const TITLE = 'Clinic closed on Friday';
const CONTENT = 'The clinic is closed this Friday for staff training.';

/** Types the announcement, once the lazy screen has loaded. */
async function fillAnnouncement(events: ReturnType<typeof renderApp>['events']) {
  await events.click(await screen.findByRole('textbox', { name: 'Title' }, { timeout: 15_000 }));
  await events.paste(TITLE);
  await events.click(screen.getByRole('textbox', { name: 'Content' }));
  await events.paste(CONTENT);
}

describe('push broadcast', () => {
  it('keeps Send disabled until title and content have 10 characters, each field saying what is missing', async () => {
    const { events } = renderApp({ path: '/communication/push', user: MEERA });
    const title = await screen.findByRole('textbox', { name: 'Title' }, { timeout: 15_000 });
    const content = screen.getByRole('textbox', { name: 'Content' });
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await events.type(title, 'Closed');
    expect(screen.getByText('At least 10 characters (6 so far).')).toBeInTheDocument();
    await events.click(content);
    await events.paste(CONTENT);
    expect(send).toBeDisabled();
    await events.type(title, ' on Friday');
    expect(send).toBeEnabled();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Push Broadcast');
  });

  it('reviews the announcement in a dialog, then queues it: the spec’s success message', async () => {
    const bodies: unknown[] = [];
    const { events } = renderApp({
      path: '/communication/push',
      user: MEERA,
      routes: {
        'POST /internal/notifications/_broadcast': (request) => {
          bodies.push(request.body);
          return json(202, { id: 'n1' });
        },
      },
    });
    await fillAnnouncement(events);
    await events.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review push notification' });
    expect(within(dialog).getByText(TITLE)).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await events.click(within(dialog).getByRole('button', { name: 'Send to every patient' }));
    expect(await screen.findByText(PUSH_MESSAGES.queued)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        type: 'PUSH_NOTIFICATION',
        pushNotificationOptions: {
          purpose: 'announcement',
          title: TITLE,
          content: CONTENT,
          data: {},
        },
      },
    ]);
  });

  it('says why a broadcast over the limit was not queued, and a 200 that is not “queued” is a failure', async () => {
    let limited = true;
    const { events } = renderApp({
      path: '/communication/push',
      user: MEERA,
      routes: {
        'POST /internal/notifications/_broadcast': () =>
          limited
            ? errorAnswer(429, 'Too Many Requests', 'At most 5 push broadcasts an hour.')
            : json(200, { id: 'n1' }),
      },
    });
    await fillAnnouncement(events);
    await events.click(screen.getByRole('button', { name: 'Send' }));
    await events.click(await screen.findByRole('button', { name: 'Send to every patient' }));
    expect(
      await screen.findByText(
        PUSH_MESSAGES.error.replace(
          '{error}',
          'Too Many Requests - At most 5 push broadcasts an hour.',
        ),
      ),
    ).toBeInTheDocument();

    limited = false;
    await events.click(await screen.findByRole('button', { name: 'Send' }));
    await events.click(await screen.findByRole('button', { name: 'Send to every patient' }));
    expect(await screen.findByText(PUSH_MESSAGES.unable)).toBeInTheDocument();
  });

  it('sends a test to one patient', async () => {
    const bodies: unknown[] = [];
    const { events } = renderApp({
      path: '/communication/push',
      user: MEERA,
      routes: {
        'POST /internal/consumers/demo-sam/communications/_test': (request) => {
          bodies.push(request.body);
          return json(202, { id: 'n2' });
        },
      },
    });
    await fillAnnouncement(events);
    await events.click(screen.getByRole('textbox', { name: 'Patient id' }));
    await events.paste('demo-sam');
    await events.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(PUSH_MESSAGES.queued)).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        medium: 'push',
        pushNotificationOptions: {
          purpose: 'announcement',
          title: TITLE,
          content: CONTENT,
          data: {},
        },
      },
    ]);
  });
});
