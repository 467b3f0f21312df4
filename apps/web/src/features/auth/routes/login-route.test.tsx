import { act, screen, waitFor } from '@testing-library/react';
import { SIGN_IN_FAILED_MESSAGE, SIGNED_IN_MESSAGE } from '@loopdesk/contracts/users.ts';
import { describe, expect, it, vi } from 'vitest';
import { saveRedirectTarget } from '../../../lib/auth/redirect-target.ts';
import { errorAnswer, json, makeUser, tokenAnswer } from '../../../test/fake-server.ts';
import { renderApp } from '../../../test/render-app.tsx';

const ann = makeUser(['annotator']);

// Whole-portal renders: the default 5 s is tight on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

function fakePopup() {
  const popup = { closed: false, focus: vi.fn(), close: vi.fn() };
  const open = vi.fn(() => popup as unknown as Window);
  vi.stubGlobal('open', open);
  return { popup, open };
}

function postFromPopup(data: unknown, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin }));
  });
}

const location = () => screen.getByRole('status', { name: 'Current location' });

describe('login screen', () => {
  it('shows the title, the GSuite button, the terms link and the copyright', async () => {
    renderApp({ path: '/login', user: null });
    expect(
      await screen.findByRole('heading', { name: 'Login to your account' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login with GSuite' })).toBeEnabled();
    expect(await screen.findByRole('link', { name: 'Terms and conditions' })).toHaveAttribute(
      'href',
      'https://example.com/terms',
    );
    expect(screen.getByText(`© ${new Date().getFullYear()} Loopdesk`)).toBeInTheDocument();
  });

  it('opens the sign-in popup, shows a spinner, then goes to the saved target', async () => {
    saveRedirectTarget('/jobs/federated');
    localStorage.setItem(`loopdesk:disclaimer-agreed:${ann.id}`, '2025-01-01T00:00:00.000Z');
    const { popup, open } = fakePopup();
    let signedIn = false;
    const { events } = renderApp({
      path: '/login',
      user: null,
      routes: {
        'POST /auth/refresh': () =>
          signedIn ? json(200, tokenAnswer(ann)) : errorAnswer(401, 'Unauthorized', 'No session.'),
        'GET /internal/users/me': () => json(200, ann),
      },
    });

    await events.click(await screen.findByRole('button', { name: 'Login with GSuite' }));
    expect(open).toHaveBeenCalledWith('/auth/login', 'loopdesk-login', 'width=520,height=680');
    expect(screen.getByRole('progressbar', { name: 'Signing in' })).toBeInTheDocument();

    // The popup finishes: the cookie is set, it says so and closes.
    signedIn = true;
    postFromPopup({ type: SIGNED_IN_MESSAGE });
    popup.closed = true;

    // The screen is loaded on demand: give a busy machine time.
    await waitFor(() => expect(location()).toHaveTextContent('/jobs/federated'), {
      timeout: 10_000,
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Federated Jobs' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Signing in' })).not.toBeInTheDocument();
  });

  it('shows a refused sign-in as an error toast and stays on the login screen', async () => {
    fakePopup();
    const { events } = renderApp({ path: '/login', user: null });
    await events.click(await screen.findByRole('button', { name: 'Login with GSuite' }));

    postFromPopup({ type: SIGN_IN_FAILED_MESSAGE, message: 'Your domain is not allowed.' });

    expect(await screen.findByRole('alert')).toHaveTextContent('Your domain is not allowed.');
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: 'Signing in' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('heading', { name: 'Login to your account' })).toBeInTheDocument();
  });

  it('ignores messages from other origins', async () => {
    fakePopup();
    const { events } = renderApp({ path: '/login', user: null });
    await events.click(await screen.findByRole('button', { name: 'Login with GSuite' }));
    expect(await screen.findByRole('progressbar', { name: 'Signing in' })).toBeInTheDocument();
    postFromPopup({ type: SIGN_IN_FAILED_MESSAGE, message: 'spoofed' }, 'https://evil.example.com');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Signing in' })).toBeInTheDocument();
  });

  it('returns to the login screen when the popup is closed without signing in', async () => {
    const { popup } = fakePopup();
    const { events } = renderApp({ path: '/login', user: null });
    await events.click(await screen.findByRole('button', { name: 'Login with GSuite' }));
    popup.closed = true;
    await waitFor(() =>
      expect(screen.queryByRole('progressbar', { name: 'Signing in' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login with GSuite' })).toBeEnabled();
  });

  it('says so when the popup is blocked', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    const { events } = renderApp({ path: '/login', user: null });
    await events.click(await screen.findByRole('button', { name: 'Login with GSuite' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not be opened/);
  });

  it('sends a user who is already signed in to / when no target was saved', async () => {
    renderApp({ path: '/login', user: ann });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/$/));
    expect(
      await screen.findByRole('heading', { name: 'Welcome, Ann Example' }),
    ).toBeInTheDocument();
  });

  it('forgets a saved target older than five minutes', async () => {
    saveRedirectTarget('/jobs/federated');
    const saved = JSON.parse(localStorage.getItem('loopdesk:redirect-target') ?? '{}') as {
      savedAt: number;
    };
    localStorage.setItem(
      'loopdesk:redirect-target',
      JSON.stringify({ path: '/jobs/federated', savedAt: saved.savedAt - 300_001 }),
    );
    renderApp({ path: '/login', user: ann });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/$/));
  });
});
