import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QUEUE_SIZE_POLL_MS } from '@loopdesk/contracts/portal-routes.ts';
import { ROLES } from '@loopdesk/contracts/privileges.ts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client.ts';
import {
  callsOf,
  errorAnswer,
  installFakeServer,
  json,
  type FakeHandler,
} from '../../test/fake-server.ts';
import { playAlert } from '../../lib/sound/alert.ts';
import { NotificationBell, QUEUE_ALERT_REPEAT_MS } from './notification-bell.tsx';

// The tone itself is tested in lib/sound; here only when the bell asks for it.
vi.mock('../../lib/sound/alert.ts', () => ({ playAlert: vi.fn() }));

function renderBell(
  answers: Record<'federated' | 'exceptions' | 'hpi-summarisation', FakeHandler>,
  roles: readonly string[] = ROLES,
) {
  const fetchMock = installFakeServer(
    Object.fromEntries(
      Object.entries(answers).map(([queue, handler]) => [
        `GET /internal/queues/${queue}/_size`,
        handler,
      ]),
    ),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <NotificationBell roles={roles} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fetchMock, user: userEvent.setup() };
}

const size = (n: number) => () => json(200, { size: n });

describe('notification bell', () => {
  beforeEach(() => {
    vi.mocked(playAlert).mockClear();
  });

  it('counts, lists and sounds only the queues the roles may open (issue 20 #23)', async () => {
    const { user, fetchMock } = renderBell(
      { federated: size(0), exceptions: size(4), 'hpi-summarisation': size(5) },
      ['annotator'],
    );
    const bell = await screen.findByRole('button', { name: 'Queue sizes: 5' });
    await user.click(bell);
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['0 Federated Job Queue', '5 Summary Jobs']);
    expect(callsOf(fetchMock)).not.toContain('GET /internal/queues/exceptions/_size');
    expect(playAlert).not.toHaveBeenCalled();
  });

  it('is not shown to a role that opens none of its queues', () => {
    const { fetchMock } = renderBell(
      { federated: size(1), exceptions: size(4), 'hpi-summarisation': size(5) },
      ['approver'],
    );
    expect(screen.queryByRole('button', { name: /Queue sizes/ })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(playAlert).not.toHaveBeenCalled();
  });

  it('shows the sum of the three queues and each size in its menu', async () => {
    const { user } = renderBell({
      federated: size(3),
      exceptions: size(4),
      'hpi-summarisation': size(5),
    });
    const bell = await screen.findByRole('button', { name: 'Queue sizes: 12' });
    expect(within(bell).getByText('12')).toBeInTheDocument();

    await user.click(bell);
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['3 Federated Job Queue', '4 Exceptions Queue', '5 Summary Jobs']);
    expect(within(menu).getByRole('menuitem', { name: '3 Federated Job Queue' })).toHaveAttribute(
      'href',
      '/jobs/federated',
    );
    expect(within(menu).getByRole('menuitem', { name: '4 Exceptions Queue' })).toHaveAttribute(
      'href',
      '/jobs/exception',
    );
    expect(within(menu).getByRole('menuitem', { name: '5 Summary Jobs' })).toHaveAttribute(
      'href',
      '/jobs/clinical-summary',
    );
  });

  it("shows 'unknown' for a queue whose size call fails, and '?' on the badge", async () => {
    const { user } = renderBell({
      federated: size(2),
      exceptions: () => errorAnswer(501, 'Not Implemented', 'This endpoint is not available yet.'),
      'hpi-summarisation': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const bell = await screen.findByRole('button', { name: 'Queue sizes: unknown' });
    expect(within(bell).getByText('?')).toBeInTheDocument();

    await user.click(bell);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      '2 Federated Job Queue',
      'unknown Exceptions Queue',
      'unknown Summary Jobs',
    ]);
  });

  it("treats a success other than 200 as 'unknown'", async () => {
    renderBell({
      federated: size(1),
      exceptions: () => json(202, { size: 9 }),
      'hpi-summarisation': size(1),
    });
    expect(await screen.findByRole('button', { name: 'Queue sizes: unknown' })).toBeInTheDocument();
  });

  it('polls the sizes every 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let federated = 1;
    const { fetchMock } = renderBell({
      federated: () => json(200, { size: federated }),
      exceptions: size(0),
      'hpi-summarisation': size(0),
    });
    await screen.findByRole('button', { name: 'Queue sizes: 1' });
    const callsBefore = fetchMock.mock.calls.length;

    federated = 6;
    await act(() => vi.advanceTimersByTimeAsync(QUEUE_SIZE_POLL_MS));
    expect(await screen.findByRole('button', { name: 'Queue sizes: 6' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.length).toBe(callsBefore + 3);
  });

  it('hides the badge when every queue is empty', async () => {
    renderBell({ federated: size(0), exceptions: size(0), 'hpi-summarisation': size(0) });
    const bell = await screen.findByRole('button', { name: 'Queue sizes: 0' });
    expect(within(bell).queryByText('0')).not.toBeInTheDocument();
  });

  describe('alert sound', () => {
    it('plays when the federated queue has work, and again every 30 s while it waits', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      renderBell({ federated: size(2), exceptions: size(0), 'hpi-summarisation': size(0) });
      await screen.findByRole('button', { name: 'Queue sizes: 2' });
      expect(playAlert).toHaveBeenCalledTimes(1);

      await act(() => vi.advanceTimersByTimeAsync(QUEUE_ALERT_REPEAT_MS - 1000));
      expect(playAlert).toHaveBeenCalledTimes(1);
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(playAlert).toHaveBeenCalledTimes(2);
    });

    it('plays when the exception queue has work', async () => {
      renderBell({ federated: size(0), exceptions: size(1), 'hpi-summarisation': size(0) });
      await screen.findByRole('button', { name: 'Queue sizes: 1' });
      expect(playAlert).toHaveBeenCalledTimes(1);
    });

    it('stays silent while both are 0, even with summary jobs, and plays once work arrives', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      let exceptions = 0;
      renderBell({
        federated: size(0),
        exceptions: () => json(200, { size: exceptions }),
        'hpi-summarisation': size(4),
      });
      await screen.findByRole('button', { name: 'Queue sizes: 4' });
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_ALERT_REPEAT_MS * 2));
      expect(playAlert).not.toHaveBeenCalled();

      exceptions = 3;
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_SIZE_POLL_MS));
      await screen.findByRole('button', { name: 'Queue sizes: 7' });
      expect(playAlert).toHaveBeenCalledTimes(1);

      // Back to 0: the repeat stops.
      exceptions = 0;
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_SIZE_POLL_MS));
      await screen.findByRole('button', { name: 'Queue sizes: 4' });
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_ALERT_REPEAT_MS * 2));
      expect(playAlert).toHaveBeenCalledTimes(1);
    });

    it('stays silent when the sizes are unknown', async () => {
      renderBell({
        federated: () => errorAnswer(503, 'Service Unavailable', 'Try later.'),
        exceptions: () => errorAnswer(503, 'Service Unavailable', 'Try later.'),
        'hpi-summarisation': size(0),
      });
      await screen.findByRole('button', { name: 'Queue sizes: unknown' });
      expect(playAlert).not.toHaveBeenCalled();
    });
  });
});
