import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readRedirectTarget } from '../lib/auth/redirect-target.ts';
import { json, makeUser } from '../test/fake-server.ts';
import { renderApp } from '../test/render-app.tsx';

const location = () => screen.getByRole('status', { name: 'Current location' });
const topBarTitle = () => screen.getByRole('heading', { level: 1 });

describe('routes', () => {
  it('sends a signed-out visitor to /login and remembers a /jobs target', async () => {
    renderApp({ path: '/jobs/federated', user: null });
    expect(
      await screen.findByRole('heading', { name: 'Login to your account' }),
    ).toBeInTheDocument();
    expect(location()).toHaveTextContent('/login');
    expect(readRedirectTarget()).toBe('/jobs/federated');
  });

  it('remembers / for a protected path outside /jobs and /conversations', async () => {
    renderApp({ path: '/admin/system/redis', user: null });
    await screen.findByRole('heading', { name: 'Login to your account' });
    expect(readRedirectTarget()).toBe('/');
  });

  it('shows a spinner while it checks for a session', () => {
    renderApp({
      path: '/',
      user: null,
      routes: { 'POST /auth/refresh': () => new Promise(() => {}) },
    });
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
  });

  it('shows nothing of the portal to a user without roles, only a note and Logout', async () => {
    renderApp({ path: '/', user: makeUser([]) });
    expect(await screen.findByText(/has no roles yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('refuses a screen whose privilege the user lacks', async () => {
    renderApp({ path: '/admin/user-management', user: makeUser(['annotator']) });
    expect(await screen.findByText('You do not have access to this screen.')).toBeInTheDocument();
  });

  it('gives the last screen once marked later its screen, under its title', async () => {
    // Issue 13 built Authoring Tasks, the last 'later' screen; 'This screen is not available
    // yet.' stays for a route added later without its screen.
    renderApp({ path: '/jobs/authoring-tasks', user: makeUser(['annotator']) });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Authoring Tasks' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(topBarTitle()).toHaveTextContent('Authoring Tasks'));
  });

  it('gives routes with parameters their screen too', async () => {
    renderApp({
      path: '/jobs/async/pipelines/p1/steps/review/tasks/t9',
      user: makeUser(['approver']),
    });
    // The async task screen asks for its task (the fake server has none: 404).
    expect(
      await screen.findByText('The task could not be loaded. Returning to the dashboard…'),
    ).toBeInTheDocument();
    await waitFor(() => expect(topBarTitle()).toHaveTextContent(/^Asynchronous Jobs$/));
  });

  it('answers an unknown path with Page not found', async () => {
    renderApp({ path: '/no/such/screen', user: makeUser(['annotator']) });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Page not found' }),
    ).toBeInTheDocument();
  });

  it('welcomes a user without the analytics privilege and lists their screens', async () => {
    renderApp({ path: '/', user: makeUser(['experimental'], { displayName: 'Eve Example' }) });
    expect(
      await screen.findByRole('heading', { name: 'Welcome, Eve Example' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(topBarTitle()).toHaveTextContent('Dashboard'));
    const jobs = screen.getByRole('region', { name: 'Jobs' });
    expect(
      within(jobs)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Clinical Summary', 'Data Preparation']);
    expect(within(jobs).getByRole('link', { name: 'Data Preparation' })).toHaveAttribute(
      'href',
      '/jobs/data-preparation',
    );
  });

  it('welcomes by email when there is no display name', async () => {
    renderApp({ path: '/', user: makeUser(['approver'], { displayName: null }) });
    expect(
      await screen.findByRole('heading', { name: 'Welcome, ann@example.com' }),
    ).toBeInTheDocument();
  });

  it('shows holders of analytics:dashboard:view the analytics dashboard, never a placeholder', async () => {
    renderApp({
      path: '/',
      user: makeUser(['medical']),
      routes: {
        'GET /internal/analytics/dashboard': () => json(200, { url: '/analytics/embed?token=t' }),
      },
    });
    expect(await screen.findByTitle('Analytics dashboard')).toHaveAttribute(
      'src',
      '/analytics/embed?token=t',
    );
    expect(screen.queryByText('This screen is not available yet.')).not.toBeInTheDocument();
    await waitFor(() => expect(topBarTitle()).toHaveTextContent('Dashboard'));
    expect(screen.queryByRole('heading', { name: /Welcome/ })).not.toBeInTheDocument();
  });

  it('shows the disclaimer after sign-in until the user agrees', async () => {
    const { events } = renderApp({
      path: '/',
      user: makeUser(['annotator']),
      disclaimerAgreed: false,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Disclaimer' });
    expect(within(dialog).getByRole('link', { name: 'Terms of Use' })).toHaveAttribute(
      'href',
      'https://example.com/terms',
    );
    await events.click(within(dialog).getByRole('button', { name: 'Agree' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
