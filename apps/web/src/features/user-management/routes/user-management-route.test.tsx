import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ManagedUser, UsersListResponse } from '@loopdesk/contracts/users.ts';
import { errorAnswer, json, makeUser, type FakeRequest } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

vi.setConfig({ testTimeout: 20_000 });

const ADMIN = makeUser(['admin'], { id: 'user-ada', email: 'ada@example.com', displayName: 'Ada' });
const BOB: ManagedUser = {
  uid: '6f1c2b1e-1111-4a4a-8b8b-000000000001',
  email: 'bob@example.com',
  displayName: 'Bob',
  photoUrl: null,
  customClaims: { roles: ['annotator'] },
};

function page(request: FakeRequest): UsersListResponse {
  const q = request.query.get('q') ?? '';
  const all = [
    { ...BOB, lastSignInAt: '2026-11-20T09:30:00.000Z' },
    {
      uid: 'u-2',
      email: 'cy@example.com',
      displayName: null,
      photoUrl: null,
      customClaims: { roles: [] },
      lastSignInAt: null,
    },
  ].filter((user) => user.email.includes(q));
  return { items: all, total: all.length, page: Number(request.query.get('p')), size: 20 };
}

/** The screen is drawn once its users table is (the first render loads the lazy route). */
const loaded = () => screen.findByRole('table', { name: 'Users' }, { timeout: 10_000 });

const listRoute = { 'GET /internal/users': (request: FakeRequest) => json(200, page(request)) };

describe('user management', () => {
  it('finds a user by email, shows role checkboxes with the spec labels, and saves', async () => {
    let saved: unknown;
    const { events } = renderApp({
      path: '/admin/user-management',
      user: ADMIN,
      routes: {
        ...listRoute,
        [`GET /internal/users/${btoa('bob@example.com')}`]: () => json(200, BOB),
        [`PATCH /internal/users/${btoa(BOB.uid)}`]: (request) => {
          saved = request.body;
          return json(200, { ...BOB, customClaims: { roles: ['annotator', 'medical'] } });
        },
      },
    });
    await loaded();
    await events.type(screen.getByRole('textbox', { name: 'Email or id' }), 'bob@example.com');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('User Management');
    await events.click(screen.getByRole('button', { name: 'Search' }));
    const form = await screen.findByRole('form', { name: 'Roles of bob@example.com' });
    expect(
      within(form)
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')?.textContent),
    ).toEqual([
      'Administrator',
      'medical',
      'annotator',
      'approver',
      'System Administrator',
      'experimental',
    ]);
    expect(within(form).getByRole('checkbox', { name: 'annotator' })).toBeChecked();
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await events.click(within(form).getByRole('checkbox', { name: 'medical' }));
    await events.click(save);
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(saved).toEqual({ permissions: { roles: ['medical', 'annotator'] } });
  });

  it("says 'No one found with that key {id}..' for an unknown user", async () => {
    const { events } = renderApp({
      path: '/admin/user-management',
      user: ADMIN,
      routes: {
        ...listRoute,
        [`GET /internal/users/${btoa('nobody')}`]: () =>
          errorAnswer(404, 'Not Found', "No user with the id or email 'nobody'."),
      },
    });
    await loaded();
    await events.type(await screen.findByRole('textbox', { name: 'Email or id' }), 'nobody{Enter}');
    expect(await screen.findByText('No one found with that key nobody..')).toBeInTheDocument();
  });

  it("a failed save says 'Error updating, try again later.'; the last administrator's 409 says why", async () => {
    let answer = errorAnswer(500, 'Internal Server Error', 'Something went wrong.');
    const { events } = renderApp({
      path: '/admin/user-management',
      user: ADMIN,
      routes: {
        ...listRoute,
        [`GET /internal/users/${btoa('bob@example.com')}`]: () => json(200, BOB),
        [`PATCH /internal/users/${btoa(BOB.uid)}`]: () => answer,
      },
    });
    await loaded();
    await events.click(screen.getByRole('button', { name: 'Edit roles of bob@example.com' }));
    const form = await screen.findByRole('form', { name: 'Roles of bob@example.com' });
    await events.click(within(form).getByRole('checkbox', { name: 'annotator' }));
    expect(within(form).getByText(/sees only ‘No access yet’/)).toBeInTheDocument();
    await events.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error updating, try again later.')).toBeInTheDocument();
    answer = errorAnswer(409, 'Conflict', 'This is the last administrator.');
    await events.click(within(form).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Error updating, try again later. This is the last administrator.'),
    ).toBeInTheDocument();
  });

  it('lists every user with roles and last sign-in, and filters them', async () => {
    const { events } = renderApp({
      path: '/admin/user-management',
      user: ADMIN,
      routes: listRoute,
    });
    const table = await loaded();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Email', 'Name', 'Roles', 'Last sign-in', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('bob@example.comBobannotator');
    expect(rows[1]).toHaveTextContent('none');
    expect(rows[1]).toHaveTextContent('never');
    await events.type(screen.getByRole('searchbox', { name: 'Filter users' }), 'cy');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('cy@example.com');
  });
});
