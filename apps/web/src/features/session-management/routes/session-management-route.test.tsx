import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsOf, errorAnswer, json, makeUser } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 20_000 });

const ADMIN = makeUser(['admin'], { id: 'user-ada', email: 'ada@example.com', displayName: 'Ada' });
const ANN = '6f1c2b1e-1111-4a4a-8b8b-000000000001';
const MEI = '6f1c2b1e-2222-4a4a-8b8b-000000000002';

function sessions() {
  return {
    items: [
      { technicianId: ANN, state: 'activated', source: 'federated', name: 'Ann', connected: true },
      { technicianId: ANN, state: 'waiting', source: 'priority', name: 'Ann', connected: true },
      { technicianId: MEI, state: 'paused', source: 'exceptions', name: 'Mei', connected: false },
    ],
  };
}

describe('session management', () => {
  it('lists every session with its user id, state and source', async () => {
    renderApp({
      path: '/admin/session-management',
      user: ADMIN,
      routes: { 'GET /internal/sessions/_summary': () => json(200, sessions()) },
    });
    const table = await screen.findByRole('table', { name: 'Technician sessions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['User Id', 'State', 'Source', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]?.textContent)).toEqual([
      'federated',
      'priority',
      'exceptions',
    ]);
    expect(rows[0]).toHaveTextContent(ANN);
    expect(rows[0]).toHaveTextContent('activated');
    expect(rows[2]).toHaveTextContent('paused (not connected)');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Session Management');
  });

  it('offers Close and Force Remove only for federated sessions', async () => {
    renderApp({
      path: '/admin/session-management',
      user: ADMIN,
      routes: { 'GET /internal/sessions/_summary': () => json(200, sessions()) },
    });
    const table = await screen.findByRole('table', { name: 'Technician sessions' });
    const [federated, priority, exceptions] = within(table).getAllByRole('row').slice(1);
    expect(
      within(federated as HTMLElement)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Close', 'Force Remove']);
    expect(within(priority as HTMLElement).queryAllByRole('button')).toHaveLength(0);
    expect(within(exceptions as HTMLElement).queryAllByRole('button')).toHaveLength(0);
  });

  it('closes a session after confirmation, says so and reloads the table', async () => {
    let summaries = 0;
    const { events, fetchMock } = renderApp({
      path: '/admin/session-management',
      user: ADMIN,
      routes: {
        'GET /internal/sessions/_summary': () => {
          summaries += 1;
          return json(200, sessions());
        },
        [`GET /internal/users/${btoa(ANN)}/sessions/_close`]: () =>
          json(200, { technicianId: ANN, action: 'closed' }),
      },
    });
    await events.click(
      await screen.findByRole('button', { name: 'Close the federated session of Ann' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Close session' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to close the technicians session? This will take 5 seconds to propogate. (Ann, federated)',
    );
    // Cancel changes nothing.
    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsOf(fetchMock).some((call) => call.endsWith('/sessions/_close'))).toBe(false);

    // The dialog is gone once the page is reachable again.
    await events.click(
      await screen.findByRole('button', { name: 'Close the federated session of Ann' }),
    );
    await events.click(
      within(screen.getByRole('dialog', { name: 'Close session' })).getByRole('button', {
        name: 'Close',
      }),
    );
    expect(await screen.findByText('The session was closed.')).toBeInTheDocument();
    expect(callsOf(fetchMock)).toContain(`GET /internal/users/${btoa(ANN)}/sessions/_close`);
    // Spec 3 §4: the list is read again 10 seconds later, not at once.
    expect(summaries).toBe(1);
    await waitFor(() => expect(summaries).toBe(2), { timeout: 20_000 });
  }, 40_000);

  it('force removes a session, and shows the server error when it fails', async () => {
    const { events } = renderApp({
      path: '/admin/session-management',
      user: ADMIN,
      routes: {
        'GET /internal/sessions/_summary': () => json(200, sessions()),
        [`GET /internal/users/${btoa(ANN)}/sessions/_remove`]: () =>
          errorAnswer(404, 'Not Found', `No technician session for '${ANN}'.`),
      },
    });
    await events.click(
      await screen.findByRole('button', { name: 'Force remove the federated session of Ann' }),
    );
    await events.click(
      within(screen.getByRole('dialog', { name: 'Force remove session' })).getByRole('button', {
        name: 'Force Remove',
      }),
    );
    expect(
      await screen.findByText(
        `Error trying to remove session. Not Found - No technician session for '${ANN}'.`,
      ),
    ).toBeInTheDocument();
  });

  it('reloads on Refresh', async () => {
    let summaries = 0;
    const { events } = renderApp({
      path: '/admin/session-management',
      user: ADMIN,
      routes: {
        'GET /internal/sessions/_summary': () => {
          summaries += 1;
          return json(200, summaries === 1 ? { items: [] } : sessions());
        },
      },
    });
    expect(await screen.findByText('No technician sessions.')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('activated')).toBeInTheDocument();
  });
});
