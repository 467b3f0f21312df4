import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGING_MESSAGES, type Thread } from '@loopdesk/contracts/messaging.ts';
import {
  callsOf,
  errorAnswer,
  json,
  makeUser,
  type FakeRequest,
} from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 45_000 });

const MEERA = makeUser(['medical'], { id: 'user-meera', email: 'meera@example.com' });
const THREAD = '11111111-2222-4333-8444-555555555555';

const message = (id: string, direction: 'IN' | 'OUT', content: string) => ({
  id,
  content,
  createdOn: '2026-11-26T08:00:00.000Z',
  direction,
  author:
    direction === 'OUT'
      ? { id: 'user-meera', name: 'meera@example.com' }
      : { id: 'demo-sam', name: 'Sam Rivera' },
});

function thread(overrides: Partial<Thread> = {}): Thread {
  return {
    id: THREAD,
    createdOn: '2026-11-26T07:59:00.000Z',
    customer: { id: 'demo-sam', name: { given: 'Sam', family: 'Rivera' } },
    messages: [message('m2', 'IN', 'Thanks, see you Monday')],
    unreadIn: 1,
    unreadOut: 0,
    ...overrides,
  };
}

function routes(overrides: Record<string, (request: FakeRequest) => Response> = {}) {
  return {
    'GET /internal/messaging/groups': () => json(200, { items: [thread()] }),
    [`GET /internal/messaging/groups/${THREAD}/messages`]: () =>
      json(200, {
        items: [
          message('m1', 'OUT', 'Your results are in'),
          message('m2', 'IN', 'Thanks, see you Monday'),
        ],
      }),
    [`PATCH /internal/messaging/groups/${THREAD}/messages/_mark_as_read`]: () =>
      json(200, thread({ unreadIn: 0 })),
    'GET /internal/consumers/demo-sam': () =>
      json(200, {
        id: 'demo-sam',
        name: { given: 'Sam', family: 'Rivera' },
        externalReferences: [],
        tenant: 'acme-clinic',
        email: 'sam.rivera@demo-patient.test',
        createdOn: '2026-11-26T07:00:00.000Z',
      }),
    ...overrides,
  };
}

describe('direct messaging', () => {
  it('lists the open threads with unread counts; selecting one loads its messages and marks them read', async () => {
    const { events, fetchMock } = renderApp({
      path: '/communication/direct',
      user: MEERA,
      routes: routes(),
    });
    // The first render loads the lazy screen: give it time.
    const list = await screen.findByRole('list', { name: 'Open threads' }, { timeout: 15_000 });
    expect(within(list).getByText('Sam Rivera')).toBeInTheDocument();
    expect(within(list).getByText('1 unread')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Direct Messaging');

    await events.click(within(list).getByRole('button', { name: /Sam Rivera/ }));
    const pane = await screen.findByRole('list', { name: 'Messages' });
    expect(within(pane).getByText('Your results are in')).toBeInTheDocument();
    expect(within(pane).getByText('Thanks, see you Monday')).toBeInTheDocument();
    expect(
      await screen.findByText('sam.rivera@demo-patient.test · acme-clinic'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(callsOf(fetchMock)).toContain(
        `PATCH /internal/messaging/groups/${THREAD}/messages/_mark_as_read`,
      ),
    );
  });

  it('Enter sends the trimmed text, blank text is not sent, and a failure shows the spec’s message', async () => {
    const sent: unknown[] = [];
    let fail = false;
    const { events } = renderApp({
      path: '/communication/direct',
      user: MEERA,
      routes: routes({
        [`POST /internal/messaging/groups/${THREAD}/messages`]: (request) => {
          if (fail) {
            return errorAnswer(409, 'Conflict', 'This thread is archived: nothing was changed.');
          }
          sent.push(request.body);
          return new Response(JSON.stringify(message('m3', 'OUT', 'On my way')), {
            status: 201,
            headers: {
              'Content-Type': 'application/json',
              Location: `/internal/messaging/groups/${THREAD}/messages/m3`,
            },
          });
        },
      }),
    });
    await events.click(await screen.findByRole('button', { name: /Sam Rivera/ }));
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await events.type(box, '   {Enter}');
    expect(sent).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await events.clear(box);
    await events.type(box, '  On my way  {Enter}');
    await waitFor(() =>
      expect(sent).toEqual([
        { content: 'On my way', customer: { system: 'decoded', code: 'id', value: 'demo-sam' } },
      ]),
    );
    await waitFor(() => expect(box).toHaveValue(''));

    fail = true;
    await events.type(box, 'Hello again{Enter}');
    expect(
      await screen.findByText(
        MESSAGING_MESSAGES.sendFailed.replace(
          '{error}',
          'Conflict - This thread is archived: nothing was changed.',
        ),
      ),
    ).toBeInTheDocument();
    expect(box).toHaveValue('Hello again');
  });

  it('a second thread for the same customer shows the 409 message; another failure its own', async () => {
    let status = 409;
    const { events } = renderApp({
      path: '/communication/direct',
      user: MEERA,
      routes: routes({
        'POST /internal/messaging/groups/_upsert': () =>
          status === 409
            ? errorAnswer(409, 'Conflict', 'whatever the server says')
            : errorAnswer(404, 'Not Found', 'No customer with the email x@y.test.'),
      }),
    });
    const form = await screen.findByRole('form', { name: 'New thread' });
    await events.type(
      within(form).getByLabelText('Customer email'),
      'sam.rivera@demo-patient.test',
    );
    await events.type(within(form).getByLabelText('First message'), 'Hello Sam');
    await events.click(within(form).getByRole('button', { name: 'Start thread' }));
    expect(await screen.findByText(MESSAGING_MESSAGES.openThreadExists)).toBeInTheDocument();

    status = 404;
    await events.click(within(form).getByRole('button', { name: 'Start thread' }));
    expect(
      await screen.findByText(
        'Error trying to start a direct messaging thread. Not Found - No customer with the email x@y.test.',
      ),
    ).toBeInTheDocument();
  });

  it('archives the selected thread after confirming; a failure shows the spec’s message', async () => {
    let archived = false;
    const { events } = renderApp({
      path: '/communication/direct',
      user: MEERA,
      routes: routes({
        'GET /internal/messaging/groups': () => json(200, { items: archived ? [] : [thread()] }),
        [`DELETE /internal/messaging/groups/${THREAD}`]: () => {
          archived = true;
          return json(200, { id: THREAD, archivedOn: '2026-11-26T08:10:00.000Z' });
        },
      }),
    });
    await events.click(await screen.findByRole('button', { name: /Sam Rivera/ }));
    await events.click(await screen.findByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archive thread' });
    await events.click(within(dialog).getByRole('button', { name: 'Archive' }));
    expect(await screen.findByText('Thread with Sam Rivera archived.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Open threads' })).toBeNull());
  });

  it('says so when the open threads cannot be loaded', async () => {
    renderApp({
      path: '/communication/direct',
      user: MEERA,
      routes: routes({
        'GET /internal/messaging/groups': () => errorAnswer(500, 'Internal Server Error', 'boom'),
      }),
    });
    expect(
      await screen.findByText(MESSAGING_MESSAGES.threadsLoadFailed.trim()),
    ).toBeInTheDocument();
  });
});
