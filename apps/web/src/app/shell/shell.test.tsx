import { screen, waitFor, within } from '@testing-library/react';
import type { PortalConfig } from '@loopdesk/contracts/users.ts';
import { describe, expect, it } from 'vitest';
import { TEST_CONFIG, callsOf, json, makeUser } from '../../test/fake-server.ts';
import { renderApp } from '../../test/render-app.tsx';

const ann = makeUser(['annotator'], {
  displayName: 'Ann Example',
  photoURL: 'https://example.com/ann.png',
});

function renderShell(config: Partial<PortalConfig> = {}) {
  return renderApp({
    path: '/',
    user: ann,
    routes: { 'GET /portal-config': () => json(200, { ...TEST_CONFIG, ...config }) },
  });
}

describe('shell', () => {
  it.each([
    ['staging', 'rgb(21, 101, 192)'],
    ['test', 'rgb(46, 125, 50)'],
    ['localhost', 'rgb(198, 40, 40)'],
    ['production', 'rgb(48, 48, 48)'],
  ] as const)('colours the top bar for %s', async (environment, colour) => {
    renderShell({ environment });
    const bar = await screen.findByRole('banner');
    await waitFor(() => expect(bar).toHaveAttribute('data-environment', environment));
    expect(getComputedStyle(bar).backgroundColor).toBe(colour);
  });

  it('links the synthetic test case form and the help centre in new tabs', async () => {
    renderShell();
    const form = await screen.findByRole('link', { name: 'Create a synthetic test case' });
    expect(form).toHaveAttribute('href', 'https://forms.example.com/synthetic');
    expect(form).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Help center' })).toHaveAttribute(
      'href',
      'https://help.example.com',
    );
  });

  it('disables the icons whose address is not configured and says why', async () => {
    const { events } = renderShell({ syntheticTestCaseUrl: '', helpCenterUrl: '' });
    const form = await screen.findByRole('button', { name: 'Create a synthetic test case' });
    expect(form).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Help center' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.queryByRole('link', { name: 'Help center' })).not.toBeInTheDocument();

    await events.hover(form);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'The synthetic test case form is not configured',
    );
  });

  it('toggles the drawer with the menu button', async () => {
    const { events } = renderShell();
    const toggle = await screen.findByRole('button', { name: 'Navigation menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();

    await events.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() =>
      expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument(),
    );

    await events.click(toggle);
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  });

  it('shows the account with its avatar and signs out from its menu', async () => {
    const { events, fetchMock, queryClient } = renderShell();
    const account = await screen.findByRole('button', { name: 'Ann Example' });
    expect(account.querySelector('img')).toHaveAttribute('src', 'https://example.com/ann.png');

    await events.click(account);
    await events.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Logout' }));

    expect(
      await screen.findByRole('heading', { name: 'Login to your account' }),
    ).toBeInTheDocument();
    expect(callsOf(fetchMock)).toContain('POST /auth/logout');
    expect(screen.getByRole('status', { name: 'Current location' })).toHaveTextContent('/login');
    expect(queryClient.getQueryData(['queues', 'federated', 'size'])).toBeUndefined();
  });

  it('shows the email on the account button when there is no display name', async () => {
    renderApp({ path: '/', user: makeUser(['annotator'], { displayName: null }) });
    expect(await screen.findByRole('button', { name: 'ann@example.com' })).toBeInTheDocument();
  });
});
