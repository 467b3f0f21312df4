import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Me } from '@loopdesk/contracts/users.ts';
import { MemoryRouter, useLocation } from 'react-router';
import { AppProviders } from '../app/providers.tsx';
import { AppRoutes } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { installFakeServer, signedInRoutes, type FakeHandler } from './fake-server.ts';

export interface RenderAppOptions {
  path?: string;
  /** The signed-in user; null for nobody. */
  user: Me | null;
  /** Extra or replaced fake routes. */
  routes?: Record<string, FakeHandler>;
  /** Whether the user already agreed to the disclaimer (default true, so it stays out of the way). */
  disclaimerAgreed?: boolean;
}

/** Shows where the router is, for assertions on navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output aria-label="Current location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders the whole portal at `path` against a fake server. */
export function renderApp({
  path = '/',
  user,
  routes = {},
  disclaimerAgreed = true,
}: RenderAppOptions) {
  const fetchMock = installFakeServer({ ...signedInRoutes(user), ...routes });
  if (user && disclaimerAgreed) {
    localStorage.setItem(`loopdesk:disclaimer-agreed:${user.id}`, '2025-01-01T00:00:00.000Z');
  }
  const queryClient = createQueryClient();
  const events = userEvent.setup();
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
  return { ...view, fetchMock, queryClient, events };
}
